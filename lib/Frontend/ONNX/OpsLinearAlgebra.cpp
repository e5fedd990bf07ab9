#include "NodeImporter.h"
void lwp::onnx::registerLinearAlgebraOps(OpTable &T) {}
