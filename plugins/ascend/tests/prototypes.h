/* C prototypes of every CANN function ember_ascend.driver binds, from CANN's public headers
 * and operator documents. test_driver_bindings.py parses this file and checks each binding's
 * restype and argtypes against it, so a typo in a binding fails the tests.
 *
 * Runtime: hicann/runtime include/external/acl/acl_rt.h, acl_base_rt.h (typedef int aclError;
 * enums are int). nnopbase: hicann/opbase include/nnopbase/aclnn/acl_meta.h, aclnn_base.h.
 * aclop: mirror-cann/ge inc/external/acl/acl_op_compiler.h, acl_op.h, acl_base_mdl.h.
 * HCCL: hicann/hccl include/hccl.h, hicann/hcomm include/hccl/hccl_types.h. aclprof:
 * acl_prof.h. aclnn operators: the "GetWorkspaceSize" prototypes of hicann/ops-math @c4193324
 * and hicann/ops-nn @e5c3fa93 (file named after each), run phase from aclnn_base's two-phase
 * convention: aclnnStatus aclnnXxx(void*, uint64_t, aclOpExecutor*, aclrtStream).
 */

/* runtime (libascendcl.so) */
aclError aclInit(const char *configPath);
aclError aclFinalize();
const char *aclGetRecentErrMsg();
const char *aclrtGetSocName();
aclError aclrtGetDeviceCount(uint32_t *count);
aclError aclrtSetDevice(int32_t deviceId);
aclError aclrtResetDevice(int32_t deviceId);
aclError aclrtCreateStream(aclrtStream *stream);
aclError aclrtDestroyStream(aclrtStream stream);
aclError aclrtSynchronizeStream(aclrtStream stream);
aclError aclrtCreateEvent(aclrtEvent *event);
aclError aclrtDestroyEvent(aclrtEvent event);
aclError aclrtRecordEvent(aclrtEvent event, aclrtStream stream);
aclError aclrtStreamWaitEvent(aclrtStream stream, aclrtEvent event);
aclError aclrtSynchronizeEvent(aclrtEvent event);
aclError aclrtEventElapsedTime(float *ms, aclrtEvent startEvent, aclrtEvent endEvent);
aclError aclrtMalloc(void **devPtr, size_t size, aclrtMemMallocPolicy policy);
aclError aclrtFree(void *devPtr);
aclError aclrtMallocHost(void **hostPtr, size_t size);
aclError aclrtFreeHost(void *hostPtr);
aclError aclrtMemcpy(void *dst, size_t destMax, const void *src, size_t count, aclrtMemcpyKind kind);
aclError aclrtMemcpyAsync(void *dst, size_t destMax, const void *src, size_t count, aclrtMemcpyKind kind, aclrtStream stream);
aclError aclrtMemsetAsync(void *devPtr, size_t maxCount, int32_t value, size_t count, aclrtStream stream);
aclError aclrtGetMemInfo(aclrtMemAttr attr, size_t *free, size_t *total);

/* nnopbase (libnnopbase.so) */
aclnnStatus aclnnInit(const char *configPath);
aclTensor *aclCreateTensor(const int64_t *viewDims, uint64_t viewDimsNum, aclDataType dataType, const int64_t *stride, int64_t offset, aclFormat format, const int64_t *storageDims, uint64_t storageDimsNum, void *tensorData);
aclScalar *aclCreateScalar(void *value, aclDataType dataType);
aclIntArray *aclCreateIntArray(const int64_t *value, uint64_t size);
aclBoolArray *aclCreateBoolArray(const bool *value, uint64_t size);
aclTensorList *aclCreateTensorList(const aclTensor *const *value, uint64_t size);
aclnnStatus aclDestroyTensor(const aclTensor *tensor);
aclnnStatus aclDestroyScalar(const aclScalar *scalar);
aclnnStatus aclDestroyIntArray(const aclIntArray *array);
aclnnStatus aclDestroyBoolArray(const aclBoolArray *array);
aclnnStatus aclDestroyTensorList(const aclTensorList *array);
aclnnStatus aclSetAclOpExecutorRepeatable(aclOpExecutor *executor);
aclnnStatus aclDestroyAclOpExecutor(aclOpExecutor *executor);

/* aclop (libacl_op_compiler.so; CANN 9: GE's acl_op_executor) */
aclTensorDesc *aclCreateTensorDesc(aclDataType dataType, int numDims, const int64_t *dims, aclFormat format);
void aclDestroyTensorDesc(const aclTensorDesc *desc);
aclDataBuffer *aclCreateDataBuffer(void *data, size_t size);
aclError aclDestroyDataBuffer(const aclDataBuffer *dataBuffer);
aclopAttr *aclopCreateAttr();
void aclopDestroyAttr(const aclopAttr *attr);
aclError aclopSetAttrInt(aclopAttr *attr, const char *attrName, int64_t attrValue);
aclError aclopSetAttrBool(aclopAttr *attr, const char *attrName, uint8_t attrValue);
aclError aclopSetAttrString(aclopAttr *attr, const char *attrName, const char *attrValue);
aclError aclopSetAttrListInt(aclopAttr *attr, const char *attrName, int numValues, const int64_t *values);
aclError aclopCompileAndExecuteV2(const char *opType, int numInputs, aclTensorDesc *inputDesc[], aclDataBuffer *inputs[], int numOutputs, aclTensorDesc *outputDesc[], aclDataBuffer *outputs[], aclopAttr *attr, aclopEngineType engineType, aclopCompileType compileFlag, const char *opPath, aclrtStream stream);

/* HCCL (libhccl.so) */
HcclResult HcclGetRootInfo(HcclRootInfo *rootInfo);
HcclResult HcclCommInitRootInfo(uint32_t nRanks, const HcclRootInfo *rootInfo, uint32_t rank, HcclComm *comm);
HcclResult HcclAllReduce(void *sendBuf, void *recvBuf, uint64_t count, HcclDataType dataType, HcclReduceOp op, HcclComm comm, aclrtStream stream);
HcclResult HcclCommDestroy(HcclComm comm);

/* aclprof (libmsprofiler.so) */
aclError aclprofInit(const char *profilerResultPath, size_t length);
aclprofConfig *aclprofCreateConfig(uint32_t *deviceIdList, uint32_t deviceNums, aclprofAicoreMetrics aicoreMetrics, const aclprofAicoreEvents *aicoreEvents, uint64_t dataTypeConfig);
aclError aclprofStart(const aclprofConfig *profilerConfig);
aclError aclprofStop(const aclprofConfig *profilerConfig);
aclError aclprofDestroyConfig(const aclprofConfig *profilerConfig);
aclError aclprofFinalize();

/* aclnn operators (libopapi.so) */
/* ops-math:math/add/docs/aclnnAdd&aclnnInplaceAdd.md */
aclnnStatus aclnnAddGetWorkspaceSize(const aclTensor* self, const aclTensor* other, const aclScalar* alpha, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
aclnnStatus aclnnAdd(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);
/* ops-math:math/sub/docs/aclnnSub&aclnnInplaceSub.md */
aclnnStatus aclnnSubGetWorkspaceSize(const aclTensor* self, const aclTensor* other, const aclScalar* alpha, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
aclnnStatus aclnnSub(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);
/* ops-math:math/mul/docs/aclnnMul&aclnnInplaceMul.md */
aclnnStatus aclnnMulGetWorkspaceSize(const aclTensor *self, const aclTensor *other, aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);
aclnnStatus aclnnMul(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);
/* ops-math:math/div/docs/aclnnDiv&aclnnInplaceDiv.md */
aclnnStatus aclnnDivGetWorkspaceSize(const aclTensor *self, const aclTensor *other, aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);
aclnnStatus aclnnDiv(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);
/* ops-math:math/pow/docs/aclnnPowTensorTensor&aclnnInplacePowTensorTensor.md */
aclnnStatus aclnnPowTensorTensorGetWorkspaceSize(const aclTensor* self, const aclTensor* exponent, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
aclnnStatus aclnnPowTensorTensor(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);
/* ops-math:experimental/math/atan2/docs/aclnnAtan2.md */
aclnnStatus aclnnAtan2GetWorkspaceSize(const aclTensor *x1, const aclTensor *x2, aclTensor *y, uint64_t *workspaceSize, aclOpExecutor **executor);
aclnnStatus aclnnAtan2(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);
/* ops-math:math/floor_div/docs/aclnnFloorDivide&aclnnInplaceFloorDivide.md */
aclnnStatus aclnnFloorDivideGetWorkspaceSize(const aclTensor* self, const aclTensor* other, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
aclnnStatus aclnnFloorDivide(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);
/* ops-math:experimental/math/floor_mod/docs/aclnnRemainderTensorTensor.md */
aclnnStatus aclnnRemainderTensorTensorGetWorkspaceSize(const aclTensor* self, const aclTensor* other, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
aclnnStatus aclnnRemainderTensorTensor(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);
/* ops-math:experimental/math/mod/docs/aclnnFmodTensor&aclnnInplaceFmodTensor.md */
aclnnStatus aclnnFmodTensorGetWorkspaceSize(const aclTensor* self, const aclTensor* other, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
aclnnStatus aclnnFmodTensor(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);
/* ops-math:experimental/math/truncate_div/docs/aclnnTruncateDiv.md */
aclnnStatus aclnnTruncateDivGetWorkspaceSize(const aclTensor *x1, const aclTensor *x2, aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);
aclnnStatus aclnnTruncateDiv(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);
/* ops-math:math/xlogy/docs/aclnnXLogYTensor&aclnnInplaceXLogYTensor.md */
aclnnStatus aclnnXLogYTensorGetWorkspaceSize(const aclTensor *self, const aclTensor *other, aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);
aclnnStatus aclnnXLogYTensor(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);
/* ops-math:experimental/math/bitwise_and/docs/aclnnBitwiseAndTensor.md */
aclnnStatus aclnnBitwiseAndTensorGetWorkspaceSize(const aclTensor *self, const aclTensor *other, aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);
aclnnStatus aclnnBitwiseAndTensor(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);
/* ops-math:math/bitwise_or/docs/aclnnBitwiseOrTensor&aclnnInplaceBitwiseOrTensor.md */
aclnnStatus aclnnBitwiseOrTensorGetWorkspaceSize(const aclTensor* self, const aclTensor* other, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
aclnnStatus aclnnBitwiseOrTensor(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);
/* ops-math:math/bitwise_xor/docs/aclnnBitwiseXorTensor&aclnnInplaceBitwiseXorTensor.md */
aclnnStatus aclnnBitwiseXorTensorGetWorkspaceSize(const aclTensor* self, const aclTensor* other, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
aclnnStatus aclnnBitwiseXorTensor(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);
/* ops-math:math/maximum/docs/aclnnMaximum.md */
aclnnStatus aclnnMaximumGetWorkspaceSize(const aclTensor* self, const aclTensor* other, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
aclnnStatus aclnnMaximum(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);
/* ops-math:math/minimum/docs/aclnnMinimum.md */
aclnnStatus aclnnMinimumGetWorkspaceSize(const aclTensor *self, const aclTensor *other, aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);
aclnnStatus aclnnMinimum(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);
/* ops-math:experimental/math/equal/docs/aclnnEqTensor&aclnnInplaceEqTensor.md */
aclnnStatus aclnnEqTensorGetWorkspaceSize(const aclTensor *self, const aclTensor *other, aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);
aclnnStatus aclnnEqTensor(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);
/* ops-math:experimental/math/not_equal/docs/aclnnNeTensor&aclnnInplaceNeTensor.md */
aclnnStatus aclnnNeTensorGetWorkspaceSize(const aclTensor *self, const aclTensor *other, aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);
aclnnStatus aclnnNeTensor(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);
/* ops-math:experimental/math/greater/docs/aclnnGtTensor&aclnnInplaceGtTensor.md */
aclnnStatus aclnnGtTensorGetWorkspaceSize(const aclTensor *self, const aclTensor *other, aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);
aclnnStatus aclnnGtTensor(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);
/* ops-math:experimental/math/greater_equal/docs/aclnnGeTensor&aclnnInplaceGeTensor.md */
aclnnStatus aclnnGeTensorGetWorkspaceSize(const aclTensor* self, const aclTensor* other, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
aclnnStatus aclnnGeTensor(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);
/* ops-math:experimental/math/less/docs/aclnnLtTensor&aclnnInplaceLtTensor.md */
aclnnStatus aclnnLtTensorGetWorkspaceSize(const aclTensor *self, const aclTensor *other, aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);
aclnnStatus aclnnLtTensor(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);
/* ops-math:math/less_equal/docs/aclnnLeTensor&aclnnInplaceLeTensor.md */
aclnnStatus aclnnLeTensorGetWorkspaceSize(const aclTensor* self, const aclTensor* other, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
aclnnStatus aclnnLeTensor(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);
/* ops-math:experimental/math/logical_and/docs/aclnnLogicalAnd.md */
aclnnStatus aclnnLogicalAndGetWorkspaceSize(const aclTensor *self, const aclTensor *other, aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);
aclnnStatus aclnnLogicalAnd(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);
/* ops-math:experimental/math/logical_or/docs/aclnnLogicalOr.md */
aclnnStatus aclnnLogicalOrGetWorkspaceSize(const aclTensor* x1, const aclTensor* x2, const aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
aclnnStatus aclnnLogicalOr(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);
/* ops-math:math/add/docs/aclnnAdd&aclnnInplaceAdd.md */
aclnnStatus aclnnInplaceAddGetWorkspaceSize(const aclTensor* selfRef, const aclTensor* other, const aclScalar* alpha, uint64_t* workspaceSize, aclOpExecutor** executor);
aclnnStatus aclnnInplaceAdd(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);
/* ops-math:math/mul/docs/aclnnMul&aclnnInplaceMul.md */
aclnnStatus aclnnInplaceMulGetWorkspaceSize(aclTensor *selfRef, const aclTensor *other, uint64_t *workspaceSize, aclOpExecutor **executor);
aclnnStatus aclnnInplaceMul(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);
/* ops-math:conversion/view_copy/docs/aclnnInplaceCopy.md */
aclnnStatus aclnnInplaceCopyGetWorkspaceSize(aclTensor *selfRef, const aclTensor *src, uint64_t *workspaceSize, aclOpExecutor **executor);
aclnnStatus aclnnInplaceCopy(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);
/* ops-math:conversion/fill/docs/aclnnInplaceFillScalar.md */
aclnnStatus aclnnInplaceFillScalarGetWorkspaceSize(aclTensor *selfRef, const aclScalar *value, uint64_t *workspaceSize, aclOpExecutor **executor);
aclnnStatus aclnnInplaceFillScalar(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);
/* ops-math:math/abs/docs/aclnnAbs.md */
aclnnStatus aclnnAbsGetWorkspaceSize(const aclTensor *self, aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);
aclnnStatus aclnnAbs(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);
/* ops-math:experimental/math/neg/docs/aclnnNeg&aclnnInplaceNeg.md */
aclnnStatus aclnnNegGetWorkspaceSize(const aclTensor *self, aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);
aclnnStatus aclnnNeg(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);
/* ops-math:experimental/math/exp/docs/aclnnExp&aclnnInplaceExp.md */
aclnnStatus aclnnExpGetWorkspaceSize(const aclTensor *self, aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);
aclnnStatus aclnnExp(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);
/* ops-math:experimental/math/log/docs/aclnnLog&aclnnInplaceLog.md */
aclnnStatus aclnnLogGetWorkspaceSize(const aclTensor *self, aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);
aclnnStatus aclnnLog(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);
/* ops-math:experimental/math/rsqrt/docs/aclnnRsqrt&aclnnInplaceRsqrt.md */
aclnnStatus aclnnRsqrtGetWorkspaceSize(const aclTensor *self, aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);
aclnnStatus aclnnRsqrt(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);
/* ops-math:experimental/math/reciprocal/docs/aclnnReciprocal&aclnnInplaceReciprocal.md */
aclnnStatus aclnnReciprocalGetWorkspaceSize(const aclTensor *self, aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);
aclnnStatus aclnnReciprocal(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);
/* ops-math:math/tanh/docs/aclnnTanh&aclnnInplaceTanh.md */
aclnnStatus aclnnTanhGetWorkspaceSize(const aclTensor* self, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
aclnnStatus aclnnTanh(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);
/* ops-math:math/expm1/docs/aclnnExpm1&aclnnInplaceExpm1.md */
aclnnStatus aclnnExpm1GetWorkspaceSize(const aclTensor* self, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
aclnnStatus aclnnExpm1(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);
/* ops-math:math/log1p/docs/aclnnLog1p&aclnnInplaceLog1p.md */
aclnnStatus aclnnLog1pGetWorkspaceSize(const aclTensor* self, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
aclnnStatus aclnnLog1p(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);
/* ops-math:experimental/math/sin/docs/aclnnSin&aclnnInplaceSin.md */
aclnnStatus aclnnSinGetWorkspaceSize(const aclTensor *self, aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);
aclnnStatus aclnnSin(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);
/* ops-math:experimental/math/cos/docs/aclnnCos&aclnnInplaceCos.md */
aclnnStatus aclnnCosGetWorkspaceSize(const aclTensor *input, aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);
aclnnStatus aclnnCos(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);
/* ops-math:experimental/math/tan/docs/aclnnTan.md */
aclnnStatus aclnnTanGetWorkspaceSize(const aclTensor *x, const aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);
aclnnStatus aclnnTan(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);
/* ops-math:math/sinh/docs/aclnnSinh&aclnnInplaceSinh.md */
aclnnStatus aclnnSinhGetWorkspaceSize(const aclTensor* self, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
aclnnStatus aclnnSinh(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);
/* ops-math:math/cosh/docs/aclnnCosh&aclnnInplaceCosh.md */
aclnnStatus aclnnCoshGetWorkspaceSize(const aclTensor* self, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
aclnnStatus aclnnCosh(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);
/* ops-math:math/asin/docs/aclnnAsin&aclnnInplaceAsin.md */
aclnnStatus aclnnAsinGetWorkspaceSize(const aclTensor* self, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
aclnnStatus aclnnAsin(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);
/* ops-math:experimental/math/acos/docs/aclnnAcos&aclnnInplaceAcos.md */
aclnnStatus aclnnAcosGetWorkspaceSize(const aclTensor* input, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
aclnnStatus aclnnAcos(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);
/* ops-math:experimental/math/atan/docs/aclnnAtan.md */
aclnnStatus aclnnAtanGetWorkspaceSize(const aclTensor *input, aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);
aclnnStatus aclnnAtan(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);
/* ops-math:experimental/math/asinh/docs/aclnnAsinh&aclnnInplaceAsinh.md */
aclnnStatus aclnnAsinhGetWorkspaceSize(const aclTensor *input, aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);
aclnnStatus aclnnAsinh(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);
/* ops-math:experimental/math/acosh/docs/aclnnAcosh.md */
aclnnStatus aclnnAcoshGetWorkspaceSize(const aclTensor *self, aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);
aclnnStatus aclnnAcosh(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);
/* ops-math:math/atanh/docs/aclnnAtanh&aclnnInplaceAtanh.md */
aclnnStatus aclnnAtanhGetWorkspaceSize(const aclTensor* input, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
aclnnStatus aclnnAtanh(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);
/* ops-math:experimental/math/erf/docs/aclnnErf&aclnnInplaceErf.md */
aclnnStatus aclnnErfGetWorkspaceSize(const aclTensor *self, aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);
aclnnStatus aclnnErf(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);
/* ops-math:math/erfc/docs/aclnnErfc&aclnnInplaceErfc.md */
aclnnStatus aclnnErfcGetWorkspaceSize(const aclTensor* self, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
aclnnStatus aclnnErfc(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);
/* ops-math:experimental/math/floor/docs/aclnnFloor&aclnnInplaceFloor.md */
aclnnStatus aclnnFloorGetWorkspaceSize(const aclTensor *self, aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);
aclnnStatus aclnnFloor(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);
/* ops-math:math/ceil/docs/aclnnCeil&aclnnInplaceCeil.md */
aclnnStatus aclnnCeilGetWorkspaceSize(const aclTensor* self, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
aclnnStatus aclnnCeil(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);
/* ops-math:experimental/math/round/docs/aclnnRound.md */
aclnnStatus aclnnRoundGetWorkspaceSize(const aclTensor* self, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
aclnnStatus aclnnRound(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);
/* ops-math:math/is_finite/docs/aclnnIsFinite.md */
aclnnStatus aclnnIsFiniteGetWorkspaceSize(const aclTensor* self, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
aclnnStatus aclnnIsFinite(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);
/* ops-math:math/is_inf/docs/aclnnIsInf.md */
aclnnStatus aclnnIsInfGetWorkspaceSize(const aclTensor *x, const aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);
aclnnStatus aclnnIsInf(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);
/* ops-nn:experimental/activation/softsign/docs/aclnnSoftsign.md */
aclnnStatus aclnnSoftsignGetWorkspaceSize(const aclTensor *self, aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);
aclnnStatus aclnnSoftsign(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);
/* ops-math:experimental/math/bitwise_not/docs/aclnnBitwiseNot.md */
aclnnStatus aclnnBitwiseNotGetWorkspaceSize(const aclTensor* self, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
aclnnStatus aclnnBitwiseNot(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);
/* ops-nn:activation/elu/docs/aclnnElu&aclnnInplaceElu.md */
aclnnStatus aclnnEluGetWorkspaceSize(const aclTensor *self, const aclScalar *alpha, const aclScalar *scale, const aclScalar *inputScale, aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);
aclnnStatus aclnnElu(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);
/* ops-nn:activation/elu_grad_v2/docs/aclnnEluBackward.md */
aclnnStatus aclnnEluBackwardGetWorkspaceSize(const aclTensor* gradOutput, const aclScalar* alpha, const aclScalar* scale, const aclScalar* inputScale, bool isResult, const aclTensor* selfOrResult, aclTensor* gradInput, uint64_t* workspaceSize, aclOpExecutor** executor);
aclnnStatus aclnnEluBackward(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);
/* ops-nn:activation/softplus_v2/docs/aclnnSoftplus.md */
aclnnStatus aclnnSoftplusGetWorkspaceSize(const aclTensor* self, const aclScalar* beta, const aclScalar* threshold, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
aclnnStatus aclnnSoftplus(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);
/* ops-nn:activation/softplus_v2_grad/docs/aclnnSoftplusBackward.md */
aclnnStatus aclnnSoftplusBackwardGetWorkspaceSize(const aclTensor* gradOutput, const aclTensor* self, const aclScalar* beta, const aclScalar* threshold, aclTensor* gradInput, uint64_t* workspaceSize, aclOpExecutor** executor);
aclnnStatus aclnnSoftplusBackward(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);
/* ops-nn:activation/hard_swish/docs/aclnnHardswish&aclnnInplaceHardswish.md */
aclnnStatus aclnnHardswishGetWorkspaceSize(const aclTensor* self, const aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
aclnnStatus aclnnHardswish(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);
/* ops-nn:activation/hard_swish_grad/docs/aclnnHardswishBackward.md */
aclnnStatus aclnnHardswishBackwardGetWorkspaceSize(const aclTensor* gradOutput, const aclTensor* self, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
aclnnStatus aclnnHardswishBackward(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);
/* ops-nn:activation/hard_sigmoid/docs/aclnnHardsigmoid&aclnnInplaceHardsigmoid.md */
aclnnStatus aclnnHardsigmoidGetWorkspaceSize(const aclTensor* self, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
aclnnStatus aclnnHardsigmoid(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);
/* ops-nn:activation/hard_sigmoid_grad/docs/aclnnHardsigmoidBackward.md */
aclnnStatus aclnnHardsigmoidBackwardGetWorkspaceSize(const aclTensor* gradOutput, const aclTensor* self, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
aclnnStatus aclnnHardsigmoidBackward(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);
/* ops-nn:activation/sigmoid/docs/aclnnSigmoid&aclnnInplaceSigmoid.md */
aclnnStatus aclnnSigmoidGetWorkspaceSize(const aclTensor *self, aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);
aclnnStatus aclnnSigmoid(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);
/* ops-math:experimental/math/sqrt/docs/aclnnSqrt.md */
aclnnStatus aclnnSqrtGetWorkspaceSize(const aclTensor *self, aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);
aclnnStatus aclnnSqrt(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);
/* ops-math:math/square/docs/aclnnSquare.md */
aclnnStatus aclnnSquareGetWorkspaceSize(const aclTensor *self, aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);
aclnnStatus aclnnSquare(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);
/* ops-math:experimental/math/sign/docs/aclnnSign.md */
aclnnStatus aclnnSignGetWorkspaceSize(const aclTensor *self, const aclTensor *result, uint64_t *workspaceSize, aclOpExecutor **executor);
aclnnStatus aclnnSign(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);
/* ops-math:experimental/math/logical_not/docs/aclnnLogicalNot.md */
aclnnStatus aclnnLogicalNotGetWorkspaceSize(const aclTensor* x, const aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
aclnnStatus aclnnLogicalNot(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);
/* ops-nn:activation/relu/docs/aclnnRelu&aclnnInplaceRelu.md */
aclnnStatus aclnnReluGetWorkspaceSize(const aclTensor* self, const aclTensor* out, uint64_t* workspaceSize, aclOpExecutor **executor);
aclnnStatus aclnnRelu(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);
/* ops-nn:activation/threshold_grad_v2_d/docs/aclnnThresholdBackward.md */
aclnnStatus aclnnThresholdBackwardGetWorkspaceSize(const aclTensor *gradOutput, const aclTensor *self, const aclScalar *threshold, aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);
aclnnStatus aclnnThresholdBackward(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);
/* ops-math:conversion/clip_by_value_v2/docs/aclnnHardtanh&aclnnInplaceHardtanh.md */
aclnnStatus aclnnHardtanhGetWorkspaceSize(const aclTensor *self, const aclScalar *clipValueMin, const aclScalar *clipValueMax, aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);
aclnnStatus aclnnHardtanh(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);
/* ops-nn:activation/hardtanh_grad/docs/aclnnHardtanhBackward.md */
aclnnStatus aclnnHardtanhBackwardGetWorkspaceSize(const aclTensor* gradOutput, const aclTensor* self, const aclScalar* min, const aclScalar* max, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
aclnnStatus aclnnHardtanhBackward(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);
/* ops-nn:activation/gelu_v2/docs/aclnnGeluV2.md */
aclnnStatus aclnnGeluV2GetWorkspaceSize(const aclTensor *x, int64_t approximate, aclTensor *y, uint64_t *workspaceSize, aclOpExecutor **executor);
aclnnStatus aclnnGeluV2(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);
/* ops-nn:activation/gelu_grad_v2/docs/aclnnGeluBackwardV2.md */
aclnnStatus aclnnGeluBackwardV2GetWorkspaceSize(const aclTensor *gradOutput, const aclTensor *self, char *approximate, aclTensor *gradInput, uint64_t *workspaceSize, aclOpExecutor **executor);
aclnnStatus aclnnGeluBackwardV2(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);
/* ops-nn:activation/sigmoid_grad/docs/aclnnSigmoidBackward.md */
aclnnStatus aclnnSigmoidBackwardGetWorkspaceSize(const aclTensor *gradOutput, const aclTensor *output, aclTensor *gradInput, uint64_t *workspaceSize, aclOpExecutor **executor);
aclnnStatus aclnnSigmoidBackward(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);
/* ops-math:experimental/math/tanh_grad/doc/aclnnTanhBackward.md */
aclnnStatus aclnnTanhBackwardGetWorkspaceSize(const aclTensor* gradOutput, const aclTensor* output, aclTensor* gradInput, uint64_t* workspaceSize,aclOpExecutor** executor);
aclnnStatus aclnnTanhBackward(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);
/* ops-nn:activation/softmax_v2/docs/aclnnSoftmax.md */
aclnnStatus aclnnSoftmaxGetWorkspaceSize(const aclTensor* self, int64_t dim, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
aclnnStatus aclnnSoftmax(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);
/* ops-nn:activation/log_softmax_v2/docs/aclnnLogSoftmax.md */
aclnnStatus aclnnLogSoftmaxGetWorkspaceSize(const aclTensor* self, int64_t dim, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
aclnnStatus aclnnLogSoftmax(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);
/* ops-nn:activation/softmax_grad/docs/aclnnSoftmaxBackward.md */
aclnnStatus aclnnSoftmaxBackwardGetWorkspaceSize(const aclTensor *gradOutput, const aclTensor *output, int64_t dim, aclTensor* out, uint64_t *workspaceSize, aclOpExecutor **executor);
aclnnStatus aclnnSoftmaxBackward(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);
/* ops-nn:activation/log_softmax_grad/docs/aclnnLogSoftmaxBackward.md */
aclnnStatus aclnnLogSoftmaxBackwardGetWorkspaceSize(const aclTensor *gradOutput, const aclTensor *output, int64_t dim, aclTensor* out, uint64_t *workspaceSize, aclOpExecutor **executor);
aclnnStatus aclnnLogSoftmaxBackward(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);
/* ops-math:math/reduce_sum/docs/aclnnReduceSum.md */
aclnnStatus aclnnReduceSumGetWorkspaceSize(const aclTensor* self, const aclIntArray* dims, bool keepDims, aclDataType dtype, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
aclnnStatus aclnnReduceSum(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);
/* ops-math:math/reduce_mean/docs/aclnnMean.md */
aclnnStatus aclnnMeanGetWorkspaceSize(const aclTensor* self, const aclIntArray* dim, bool keepDim, aclDataType dtype, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
aclnnStatus aclnnMean(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);
/* ops-math:math/reduce_max/docs/aclnnAmax.md */
aclnnStatus aclnnAmaxGetWorkspaceSize(const aclTensor *self, const aclIntArray *dim, bool keepDim, aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);
aclnnStatus aclnnAmax(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);
/* ops-math:math/reduce_min/docs/aclnnAmin.md */
aclnnStatus aclnnAminGetWorkspaceSize(const aclTensor *self, const aclIntArray *dim, bool keepDim, aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);
aclnnStatus aclnnAmin(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);
/* ops-math:math/arg_max_v2/docs/aclnnArgMax.md */
aclnnStatus aclnnArgMaxGetWorkspaceSize(const aclTensor *self, int64_t dim, bool keepdim, aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);
aclnnStatus aclnnArgMax(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);
/* ops-math:math/arg_min/docs/aclnnArgMin.md */
aclnnStatus aclnnArgMinGetWorkspaceSize(const aclTensor* self, int64_t dim, bool keepdim, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
aclnnStatus aclnnArgMin(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);
/* ops-math:math/reduce_all/docs/aclnnAll.md */
aclnnStatus aclnnAllGetWorkspaceSize(const aclTensor *self, const aclIntArray *dim, bool keepdim, aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);
aclnnStatus aclnnAll(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);
/* ops-math:math/reduce_any/docs/aclnnAny.md */
aclnnStatus aclnnAnyGetWorkspaceSize(const aclTensor *self, const aclIntArray *dim, bool keepdim, aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);
aclnnStatus aclnnAny(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);
/* ops-math:experimental/math/cast/docs/aclnnCast.md */
aclnnStatus aclnnCastGetWorkspaceSize(const aclTensor *self, const aclDataType dtype, aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);
aclnnStatus aclnnCast(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);
/* ops-math:conversion/transpose/docs/aclnnPermute.md */
aclnnStatus aclnnPermuteGetWorkspaceSize(const aclTensor* self, const aclIntArray* dims, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
aclnnStatus aclnnPermute(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);
/* ops-math:math/expand/docs/aclnnExpand.md */
aclnnStatus aclnnExpandGetWorkspaceSize(const aclTensor* self, const aclIntArray* size, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
aclnnStatus aclnnExpand(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);
/* ops-math:experimental/math/tile/docs/aclnnRepeat.md */
aclnnStatus aclnnRepeatGetWorkspaceSize(const aclTensor *self, const aclIntArray *repeats, aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);
aclnnStatus aclnnRepeat(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);
/* ops-math:conversion/concat_d/docs/aclnnCat.md */
aclnnStatus aclnnCatGetWorkspaceSize(const aclTensorList *tensors, int64_t dim, aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);
aclnnStatus aclnnCat(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);
/* ops-math:conversion/pack/docs/aclnnStack.md */
aclnnStatus aclnnStackGetWorkspaceSize(const aclTensorList *tensors, int64_t dim, aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);
aclnnStatus aclnnStack(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);
/* ops-math:experimental/math/select_v2/docs/aclnnSWhere.md */
aclnnStatus aclnnSWhereGetWorkspaceSize(const aclTensor *condition, const aclTensor *self, const aclTensor *other, aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);
aclnnStatus aclnnSWhere(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);
/* ops-math:math/one_hot/docs/aclnnOneHot.md */
aclnnStatus aclnnOneHotGetWorkspaceSize(const aclTensor* self, int numClasses, const aclTensor* onValue, const aclTensor* offValue, int64_t axis, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
aclnnStatus aclnnOneHot(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);
/* ops-nn:matmul/mat_mul_v3/docs/aclnnMatmul.md */
aclnnStatus aclnnMatmulGetWorkspaceSize(const aclTensor *self, const aclTensor *mat2, aclTensor *out, int8_t cubeMathType, uint64_t *workspaceSize, aclOpExecutor **executor);
aclnnStatus aclnnMatmul(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);
/* ops-nn:matmul/batch_mat_mul_v3/docs/aclnnBatchMatMul.md */
aclnnStatus aclnnBatchMatMulGetWorkspaceSize(const aclTensor *self, const aclTensor *mat2, aclTensor *out, int8_t cubeMathType, uint64_t *workspaceSize, aclOpExecutor **executor);
aclnnStatus aclnnBatchMatMul(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);
/* ops-nn:conv/convolution_forward/docs/aclnnConvolution.md */
aclnnStatus aclnnConvolutionGetWorkspaceSize(const aclTensor *input, const aclTensor *weight, const aclTensor *bias, const aclIntArray *stride, const aclIntArray *padding, const aclIntArray *dilation, bool transposed, const aclIntArray *outputPadding, const int64_t groups, aclTensor *output, int8_t cubeMathType, uint64_t *workspaceSize, aclOpExecutor **executor);
aclnnStatus aclnnConvolution(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);
/* ops-nn:conv/convolution_backward/docs/aclnnConvolutionBackward.md */
aclnnStatus aclnnConvolutionBackwardGetWorkspaceSize(const aclTensor *gradOutput, const aclTensor *input, const aclTensor *weight, const aclIntArray *biasSizes, const aclIntArray *stride, const aclIntArray *padding, const aclIntArray *dilation, bool transposed, const aclIntArray *outputPadding, int groups, const aclBoolArray *outputMask, int8_t cubeMathType, aclTensor *gradInput, aclTensor *gradWeight, aclTensor *gradBias, uint64_t *workspaceSize, aclOpExecutor **executor);
aclnnStatus aclnnConvolutionBackward(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);
/* ops-nn:pooling/avg_pool3_d/docs/aclnnAvgPool2d.md */
aclnnStatus aclnnAvgPool2dGetWorkspaceSize(const aclTensor *self, const aclIntArray *kernelSize, const aclIntArray *strides, const aclIntArray *paddings, const bool ceilMode, const bool countIncludePad, const int64_t divisorOverride, const int8_t cubeMathType, aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);
aclnnStatus aclnnAvgPool2d(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);
/* ops-nn:pooling/avg_pool3_d_grad/docs/aclnnAvgPool2dBackward.md */
aclnnStatus aclnnAvgPool2dBackwardGetWorkspaceSize(const aclTensor *gradOutput, const aclTensor *self, const aclIntArray *kernelSize, const aclIntArray *stride, const aclIntArray *padding, bool ceilMode, bool countIncludePad, int64_t divisorOverride, int8_t cubeMathType, aclTensor *gradInput, uint64_t *workspaceSize, aclOpExecutor **executor);
aclnnStatus aclnnAvgPool2dBackward(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);
/* ops-nn:index/gather_v2/docs/aclnnGatherV2.md */
aclnnStatus aclnnGatherV2GetWorkspaceSize(const aclTensor *self, int64_t dim, const aclTensor *index, aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);
aclnnStatus aclnnGatherV2(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);
/* ops-nn:index/gather_nd/docs/aclnnGatherNd.md */
aclnnStatus aclnnGatherNdGetWorkspaceSize(const aclTensor *self, const aclTensor *indices, bool negativeIndexSupport, aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);
aclnnStatus aclnnGatherNd(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);
/* ops-nn:index/index_put_v2/docs/aclnnIndexPutImpl.md */
aclnnStatus aclnnIndexPutImplGetWorkspaceSize(aclTensor* selfRef, const aclTensorList* indices, const aclTensor* values, const bool accumulate, const bool unsafe, uint64_t* workspaceSize, aclOpExecutor** executor);
aclnnStatus aclnnIndexPutImpl(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);
/* ops-nn:pooling/max_pool3d_with_argmax_v2/docs/aclnnMaxPool2dWithMask.md */
aclnnStatus aclnnMaxPool2dWithMaskGetWorkspaceSize(const aclTensor *self, const aclIntArray *kernelSize, const aclIntArray *stride, const aclIntArray *padding, const aclIntArray *dilation, bool ceilMode, aclTensor *out, aclTensor *indices, uint64_t *workspaceSize, aclOpExecutor **executor);
aclnnStatus aclnnMaxPool2dWithMask(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);
/* ops-nn:pooling/max_pool3d_grad_with_argmax/docs/aclnnMaxPool2dWithMaskBackward.md */
aclnnStatus aclnnMaxPool2dWithMaskBackwardGetWorkspaceSize(const aclTensor *gradOutput, const aclTensor *self, const aclTensor *indices, const aclIntArray *kernelSize, const aclIntArray *stride, const aclIntArray *padding, const aclIntArray *dilation, bool ceilMode, aclTensor *gradInput, uint64_t *workspaceSize, aclOpExecutor **executor);
aclnnStatus aclnnMaxPool2dWithMaskBackward(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);
/* ops-nn:activation/softmax_cross_entropy_with_logits/docs/aclnnSoftmaxCrossEntropyWithLogits.md */
aclnnStatus aclnnSoftmaxCrossEntropyWithLogitsGetWorkspaceSize(const aclTensor* features, aclTensor* labels, aclTensor* loss, aclTensor* backprop, uint64_t* workspaceSize, aclOpExecutor** executor);
aclnnStatus aclnnSoftmaxCrossEntropyWithLogits(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);
/* ops-nn:experimental/loss/nll_loss/docs/aclnnNLLLoss.md */
aclnnStatus aclnnNLLLossGetWorkspaceSize(const aclTensor *self, const aclTensor *target, const aclTensor *weight, int64_t reduction, int64_t ignoreIndex, aclTensor *out, aclTensor *totalWeightOut, uint64_t *workspaceSize, aclOpExecutor **executor);
aclnnStatus aclnnNLLLoss(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);
/* ops-math:math/flip/docs/aclnnFlip.md */
aclnnStatus aclnnFlipGetWorkspaceSize(const aclTensor* self, const aclIntArray* dims, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
aclnnStatus aclnnFlip(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);
/* ops-math:math/reduce_prod/docs/aclnnProdDim.md */
aclnnStatus aclnnProdDimGetWorkspaceSize(const aclTensor* self, int64_t dim, bool keepDim, const aclDataType dtype, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
aclnnStatus aclnnProdDim(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);
/* ops-math:math/cumsum/docs/aclnnCumsum.md */
aclnnStatus aclnnCumsumGetWorkspaceSize(const aclTensor* self, int64_t dim, aclDataType dtype, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
aclnnStatus aclnnCumsum(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);
/* ops-math:math/cumprod/docs/aclnnCumprod&aclnnInplaceCumprod.md */
aclnnStatus aclnnCumprodGetWorkspaceSize(const aclTensor* input, const aclScalar* dim, const aclDataType dtype, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
aclnnStatus aclnnCumprod(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);
/* ops-nn:norm/batch_norm_v3/docs/aclnnBatchNorm.md */
aclnnStatus aclnnBatchNormGetWorkspaceSize(const aclTensor* input, const aclTensor* weight, const aclTensor* bias, aclTensor* runningMean, aclTensor* runningVar, bool training, double momentum, double eps, aclTensor* output, aclTensor* saveMean, aclTensor* saveInvstd, uint64_t* workspaceSize, aclOpExecutor** executor);
aclnnStatus aclnnBatchNorm(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);
/* ops-nn:norm/batch_norm_grad_v3/docs/aclnnBatchNormBackward.md */
aclnnStatus aclnnBatchNormBackwardGetWorkspaceSize(const aclTensor* gradOut, const aclTensor* input, const aclTensor* weight, const aclTensor* runningMean, const aclTensor* runningVar, const aclTensor* saveMean, const aclTensor* saveInvstd, bool training, double eps, const aclBoolArray* outputMask, aclTensor* gradInput, aclTensor* gradWeight, aclTensor* gradBias, uint64_t* workspaceSize, aclOpExecutor** executor);
aclnnStatus aclnnBatchNormBackward(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);
/* ops-nn:loss/nll_loss_grad/docs/aclnnNLLLossBackward.md */
aclnnStatus aclnnNLLLossBackwardGetWorkspaceSize(const aclTensor* gradOutput, const aclTensor* self, const aclTensor* target, const aclTensor* weight, int64_t reduction, int64_t ignoreIndex, const aclTensor* totalWeight, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
aclnnStatus aclnnNLLLossBackward(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);
/* ops-nn:norm/layer_norm_v4/docs/aclnnLayerNorm&aclnnLayerNormWithImplMode.md */
aclnnStatus aclnnLayerNormGetWorkspaceSize(const aclTensor* input, const aclIntArray* normalizedShape, const aclTensor* weightOptional, const aclTensor* biasOptional, double eps, aclTensor* out, aclTensor* meanOutOptional, aclTensor* rstdOutOptional, uint64_t* workspaceSize, aclOpExecutor** executor);
aclnnStatus aclnnLayerNorm(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);
/* ops-nn:norm/layer_norm_grad_v3/docs/aclnnLayerNormBackward.md */
aclnnStatus aclnnLayerNormBackwardGetWorkspaceSize(const aclTensor* gradOut, const aclTensor* input, const aclIntArray* normalizedShape, const aclTensor* mean, const aclTensor* rstd, const aclTensor* weightOptional, const aclTensor* biasOptional, const aclBoolArray* outputMask, aclTensor* gradInputOut, aclTensor* gradWeightOut, aclTensor* gradBiasOut, uint64_t* workspaceSize, aclOpExecutor** executor);
aclnnStatus aclnnLayerNormBackward(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);
/* ops-math:math/top_k_v2/docs/aclnnTopk.md */
aclnnStatus aclnnTopkGetWorkspaceSize(const aclTensor *self, int64_t k, int64_t dim, bool largest, bool sorted, aclTensor *valuesOut, aclTensor *indicesOut, uint64_t *workspaceSize, aclOpExecutor **executor);
aclnnStatus aclnnTopk(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);
/* ops-math:math/sort/docs/aclnnSort.md */
aclnnStatus aclnnSortGetWorkspaceSize(const aclTensor* self, bool stable, int64_t dim, bool descending, aclTensor* valuesOut, aclTensor* indicesOut, uint64_t* workspaceSize, aclOpExecutor** executor);
aclnnStatus aclnnSort(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);
/* ops-nn:index/gather_elements_v2/docs/aclnnGather.md */
aclnnStatus aclnnGatherGetWorkspaceSize(const aclTensor* self, const int64_t dim, const aclTensor* index, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
aclnnStatus aclnnGather(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);
/* ops-nn:index/scatter_elements/docs/aclnnScatterAdd.md */
aclnnStatus aclnnScatterAddGetWorkspaceSize(const aclTensor* self, int64_t dim, const aclTensor* index, const aclTensor* src, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
aclnnStatus aclnnScatterAdd(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);
/* ops-nn:index/inplace_index_add/docs/aclnnIndexAdd.md */
aclnnStatus aclnnIndexAddGetWorkspaceSize(const aclTensor* self, const int64_t dim, const aclTensor* index, const aclTensor* source, const aclScalar* alpha, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
aclnnStatus aclnnIndexAdd(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);
/* ops-math:random/dsa_random_uniform/docs/aclnnInplaceUniform.md */
aclnnStatus aclnnInplaceUniformGetWorkspaceSize(const aclTensor *selfRef, double from, double to, uint64_t seed, uint64_t offset, uint64_t *workspaceSize, aclOpExecutor **executor);
aclnnStatus aclnnInplaceUniform(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);
/* ops-math:random/dsa_random_normal/docs/aclnnInplaceNormal.md */
aclnnStatus aclnnInplaceNormalGetWorkspaceSize(const aclTensor *selfRef, float mean, float std, int64_t seed, int64_t offset, uint64_t *workspaceSize, aclOpExecutor **executor);
aclnnStatus aclnnInplaceNormal(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);
/* ops-math:random/stateless_bernoulli/docs/aclnnBernoulli&aclnnInplaceBernoulli.md */
aclnnStatus aclnnInplaceBernoulliGetWorkspaceSize(const aclTensor *selfRef, const aclScalar *prob, int64_t seed, int64_t offset, uint64_t *workspaceSize, aclOpExecutor **executor);
aclnnStatus aclnnInplaceBernoulli(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);
/* ops-math:random/stateless_sample_multinomial/docs/aclnnMultinomial.md */
aclnnStatus aclnnMultinomialGetWorkspaceSize(const aclTensor *self, int64_t numsamples, bool replacement, int64_t seed, int64_t offset, aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);
aclnnStatus aclnnMultinomial(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);
/* ops-nn:pooling/max_pool3d_with_argmax_v2/docs/aclnnMaxPool3dWithArgmax.md */
aclnnStatus aclnnMaxPool3dWithArgmaxGetWorkspaceSize(const aclTensor *self, const aclIntArray *kernelSize, const aclIntArray *stride, const aclIntArray *padding, const aclIntArray *dilation, bool ceilMode, aclTensor *out, aclTensor *indices, uint64_t *workspaceSize, aclOpExecutor **executor);
aclnnStatus aclnnMaxPool3dWithArgmax(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);
/* ops-nn:pooling/max_pool3d_grad_with_argmax/docs/aclnnMaxPool3dWithArgmaxBackward.md */
aclnnStatus aclnnMaxPool3dWithArgmaxBackwardGetWorkspaceSize(const aclTensor *gradOutput, const aclTensor *self, const aclTensor *indices, const aclIntArray *kernelSize, const aclIntArray *stride, const aclIntArray *padding, const aclIntArray *dilation, bool ceilMode, aclTensor *gradInput, uint64_t *workspaceSize, aclOpExecutor **executor);
aclnnStatus aclnnMaxPool3dWithArgmaxBackward(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);
/* ops-nn:pooling/avg_pool3_d/docs/aclnnAvgPool3d.md */
aclnnStatus aclnnAvgPool3dGetWorkspaceSize(const aclTensor *self, const aclIntArray *kernelSize, const aclIntArray *stride, const aclIntArray *padding, bool ceilMode, bool countIncludePad, int64_t divisorOverride, aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);
aclnnStatus aclnnAvgPool3d(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);
/* ops-nn:pooling/avg_pool3_d_grad/docs/aclnnAvgPool3dBackward.md */
aclnnStatus aclnnAvgPool3dBackwardGetWorkspaceSize(const aclTensor *gradOutput, const aclTensor *self, const aclIntArray *kernelSize, const aclIntArray *stride, const aclIntArray *padding, bool ceilMode, bool countIncludePad, int64_t divisorOverride, aclTensor *output, uint64_t *workspaceSize, aclOpExecutor **executor);
aclnnStatus aclnnAvgPool3dBackward(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);
/* ops-math:math/range/docs/aclnnArange.md */
aclnnStatus aclnnArangeGetWorkspaceSize(const aclScalar *start, const aclScalar *end, const aclScalar *step, aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);
aclnnStatus aclnnArange(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);
/* ops-nn:index/matrix_inverse/docs/aclnnInverse.md */
aclnnStatus aclnnInverseGetWorkspaceSize(const aclTensor *self, aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);
aclnnStatus aclnnInverse(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);
/* ops-math:conversion/masked_select_v3/docs/aclnnMaskedSelect.md */
aclnnStatus aclnnMaskedSelectGetWorkspaceSize(const aclTensor *self, const aclTensor *mask, aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);
aclnnStatus aclnnMaskedSelect(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);
/* ops-nn:index/masked_scatter/docs/aclnnInplaceMaskedScatter.md */
aclnnStatus aclnnInplaceMaskedScatterGetWorkspaceSize(aclTensor *selfRef, const aclTensor *mask, const aclTensor *source, uint64_t *workspaceSize, aclOpExecutor **executor);
aclnnStatus aclnnInplaceMaskedScatter(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);
