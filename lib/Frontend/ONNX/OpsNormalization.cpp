#include "NodeImporter.h"
void lwp::onnx::registerNormalizationOps(OpTable &T) {}
