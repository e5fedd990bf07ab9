#include "NodeImporter.h"
void lwp::onnx::registerConvolutionOps(OpTable &T) {}
