"""The yardstick of primitive coverage: MindSpore 1.6's primitives that run on its CPU backend.

The names are ``mindspore.ops.operations`` classes (forward primitives; the backward ones of
``_grad_ops`` follow them). The table was assembled while reading MindSpore r1.6's operator
modules and CPU kernel registrations through a store that mostly holds other versions, so a
name may be off by a release; ``python -m ember info --ops`` reports coverage against it.
Left out on purpose: Ascend-only and GPU-only primitives, parameter-server Push/Pull, and the
graph-internal ones (Depend, Partial, MakeRefKey, ...).
"""

from __future__ import annotations

CPU_PRIMITIVES = frozenset("""
Abs ACos Acosh Adam AdamWeightDecay Add AddN AllGather AllReduce ApplyAdagrad ApplyMomentum
ApproximateEqual Argmax ArgMaxWithValue Argmin ArgMinWithValue Asin Asinh Assign AssignAdd
AssignSub Atan Atan2 Atanh AvgPool AvgPool3D BatchMatMul BatchNorm BatchToSpaceND BiasAdd
BinaryCrossEntropy BitwiseAnd BitwiseOr BitwiseXor BoundingBoxDecode BoundingBoxEncode
Broadcast BroadcastTo CacheSwapTable Cast Ceil CheckValid Concat Conv2D Conv2DBackpropInput
Conv2DTranspose Conv3D Conv3DTranspose Cos Cosh CropAndResize CTCLoss CumSum DepthToSpace Div
DivNoNan Dropout DynamicAssign DynamicShape Elu EmbeddingLookup Equal EqualCount Erf Erfc Exp
ExpandDims Expm1 Eye FastGeLU Fill Flatten Floor FloorDiv FloorMod FusedSparseAdam
FusedSparseFtrl FusedSparseLazyAdam FusedSparseProximalAdagrad Gather GatherD GatherNd GeLU
Greater GreaterEqual HSigmoid HSwish IOU Identity InTopK Inv Invert IsFinite IsInf IsNan
L2Loss L2Normalize LayerNorm Less LessEqual LinSpace Log Log1p LogicalAnd LogicalNot
LogicalOr LogSoftmax LSTM MapCacheIdx MapUniform MaskedFill MaskedSelect MatMul MatrixInverse
Maximum MaxPool MaxPool3D Minimum MirrorPad Mod Mul Multinomial Neg NLLLoss NMSWithMask
NotEqual OneHot OnesLike Pad PadAndShift Pow Print RandomCategorical RandomChoiceWithMask
Range Rank RealDiv Reciprocal ReduceAll ReduceAny ReduceMax ReduceMean ReduceMin ReduceProd
ReduceScatter ReduceSum ReLU ReLU6 Reshape ResizeBilinear ResizeNearestNeighbor
ReverseSequence ReverseV2 Rint ROIAlign Round Rsqrt ScatterAdd ScatterNd ScatterNdAdd
ScatterNdSub ScatterNdUpdate ScatterUpdate Select SGD Shape Sigmoid
SigmoidCrossEntropyWithLogits Sign Sin Sinh Size Slice SmoothL1Loss Softmax
SoftmaxCrossEntropyWithLogits Softplus Sort SpaceToBatchND SpaceToDepth SparseApplyAdam
SparseApplyFtrl SparseApplyLazyAdam SparseApplyProximalAdagrad
SparseSoftmaxCrossEntropyWithLogits SparseTensorDenseMatmul SparseToDense Split Sqrt Square
SquaredDifference SquareSumAll Squeeze Stack StandardNormal StridedSlice Sub SubAndFilter Tan
Tanh TensorAdd TensorCopySlices TensorScatterUpdate Tile TopK Transpose TruncateDiv
TruncateMod UniformInt UniformReal Unique UniqueWithPad UnsortedSegmentSum Unstack UpdateCache
Xdivy ZerosLike
""".split())
