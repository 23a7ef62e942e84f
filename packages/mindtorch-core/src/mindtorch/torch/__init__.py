"""mindtorch.torch: PyTorch 1.12's API on MindSpore.

Re-exports only (like jax/numpy/__init__.py): the functions come from the op table (`_ops`), the classes and
helpers from their own modules.
"""
from . import _ms  # noqa: F401  (first: the private-API boundary)
from ._device import device  # noqa: F401
from ._dtype import (  # noqa: F401
    bfloat16,
    bool,
    cdouble,
    cfloat,
    complex64,
    complex128,
    double,
    dtype,
    finfo,
    float,
    float16,
    float32,
    float64,
    get_default_dtype,
    half,
    iinfo,
    int,
    int8,
    int16,
    int32,
    int64,
    long,
    promote_types,
    set_default_dtype,
    set_default_tensor_type,
    short,
    uint8,
)
from ._ops import FUNCTIONS as _FUNCTIONS
from ._ops import _registry as _registry
from ._sparse_tensor import install_sparse_methods as _install_sparse_methods
from ._tensor import Size, Tensor  # noqa: F401
from ._tensor_str import set_printoptions  # noqa: F401

_install_sparse_methods(Tensor)  # before the table's methods: the missing-API stubs skip the names it attaches
_registry.install_methods(Tensor)
globals().update(_FUNCTIONS)

from . import (  # noqa: E402,F401,I001  (after the table: these modules use the registered functions)
    _C,
    amp,
    autograd,
    backends,
    common,
    cpu,
    cuda,
    distributed,
    distributions,
    fft,
    functional,
    futures,
    hub,
    linalg,
    multiprocessing,
    nn,
    onnx,
    optim,
    overrides,
    profiler,
    quasirandom,
    random,
    sparse,
    special,
    storage,
    testing,
    utils,
    version,
)
from ._adapter import cast_to_adapter_tensor, cast_to_ms_tensor  # noqa: E402,F401
from ._checks import _assert  # noqa: E402,F401
from ._dtype import can_cast  # noqa: E402,F401
from ._grad_mode import (  # noqa: E402,F401
    enable_grad,
    inference_mode,
    is_grad_enabled,
    is_inference_mode_enabled,
    no_grad,
    set_grad_enabled,
)
from ._legacy_tensor_types import (  # noqa: E402,F401
    BFloat16Tensor,
    BoolTensor,
    ByteTensor,
    CharTensor,
    DoubleTensor,
    FloatTensor,
    HalfTensor,
    IntTensor,
    LongTensor,
    ShortTensor,
    typename,  # noqa: E402,F401
)
from ._ops.shape import broadcast_shapes  # noqa: E402,F401
from ._random import (  # noqa: E402,F401
    Generator,
    default_generator,
    get_rng_state,
    initial_seed,
    manual_seed,
    seed,
    set_rng_state,
)
from ._settings import (  # noqa: E402,F401
    are_deterministic_algorithms_enabled,
    channels_last,
    compiled_with_cxx11_abi,
    channels_last_3d,
    contiguous_format,
    e,
    newaxis,
    get_deterministic_debug_mode,
    get_float32_matmul_precision,
    get_num_interop_threads,
    get_num_threads,
    has_cuda,
    has_cudnn,
    has_lapack,
    has_mkl,
    has_mps,
    has_openmp,
    has_spectral,
    inf,
    init_num_threads,
    is_deterministic_algorithms_warn_only_enabled,
    is_vulkan_available,
    is_warn_always_enabled,
    layout,
    legacy_contiguous_format,
    memory_format,
    nan,
    pi,
    preserve_format,
    set_deterministic_debug_mode,
    set_float32_matmul_precision,
    set_flush_denormal,
    set_num_interop_threads,
    set_num_threads,
    set_warn_always,
    sparse_coo,
    strided,
    use_deterministic_algorithms,
)
from ._sparse_tensor import dsmm, hsmm, hspmm, smm, sparse_coo_tensor, spmm, sspaddmm  # noqa: E402,F401
from .amp import autocast  # noqa: E402,F401
from .amp.autocast_mode import (  # noqa: E402,F401
    autocast_decrement_nesting,
    autocast_increment_nesting,
    clear_autocast_cache,
    get_autocast_cpu_dtype,
    get_autocast_gpu_dtype,
    is_autocast_cache_enabled,
    is_autocast_cpu_enabled,
    is_autocast_enabled,
    set_autocast_cache_enabled,
    set_autocast_cpu_dtype,
    set_autocast_cpu_enabled,
    set_autocast_enabled,
    set_autocast_gpu_dtype,
)
from .autograd.anomaly_mode import (  # noqa: E402,F401
    is_anomaly_check_nan_enabled,
    is_anomaly_enabled,
    set_anomaly_enabled,
)
from .cuda import amp as _cuda_amp  # noqa: E402,F401
from .jit import compile  # noqa: E402,F401,A004
from .serialization import load, save  # noqa: E402,F401
from .storage import (  # noqa: E402,F401
    BFloat16Storage,
    BoolStorage,
    ByteStorage,
    CharStorage,
    ComplexDoubleStorage,
    ComplexFloatStorage,
    DoubleStorage,
    FloatStorage,
    HalfStorage,
    IntStorage,
    LongStorage,
    QInt8Storage,
    QInt32Storage,
    QUInt2x4Storage,
    QUInt4x2Storage,
    QUInt8Storage,
    ShortStorage,
)
from .storage import FloatStorage as Storage  # noqa: E402,F401  (torch.Storage: the default dtype's class)
from .storage import TypedStorage as _TypedStorage  # noqa: E402,F401
from .utils.dlpack import from_dlpack, to_dlpack  # noqa: E402,F401
from .torch_version import TorchVersion as _TorchVersion  # noqa: E402

__version__ = _TorchVersion("1.12.1")

del _FUNCTIONS


def __getattr__(name: str):  # noqa: ANN201 - module-level hook
    # A torch 1.12 API we lack -> NotImplementedError naming it (an AttributeError too); a typo -> AttributeError.
    from ._unsupported import unsupported

    raise unsupported("torch", name)
