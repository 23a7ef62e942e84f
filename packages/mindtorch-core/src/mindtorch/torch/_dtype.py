"""torch dtypes are MindSpore's dtype objects, with torch's attributes and names added.

Making `torch.float32 is mindspore.float32` keeps every MindSpore API (ops, Parameter, amp, optimizers)
working on the dtypes our tensors report, with no conversion layer. We add torch's read-only attributes
(`is_floating_point`, `is_complex`, `is_signed`, `itemsize`) to MindSpore's dtype classes, and torch's
printed names (`str(torch.float32) == "torch.float32"`, which scripts and libraries parse). The names are
the one thing changed: MindSpore's own Python code still sees its names (its checkpoint writer stores
`str(dtype)` and its loader maps "Float32" back), see `_dtype_str`.
"""
from __future__ import annotations

import copyreg
import sys
from typing import Any, Optional

import mindspore as ms
import numpy as np

dtype = type(ms.float32).__mro__[-3]  # MindSpore's typing.Type: the base class of all dtypes

float16 = half = ms.float16
float32 = float = ms.float32
float64 = double = ms.float64
bfloat16 = ms.bfloat16
int8 = ms.int8
int16 = short = ms.int16
int32 = int = ms.int32
int64 = long = ms.int64
uint8 = ms.uint8
uint16 = ms.uint16
uint32 = ms.uint32
uint64 = ms.uint64
bool = ms.bool_  # noqa: A001  (torch.bool)
complex64 = cfloat = ms.complex64
complex128 = cdouble = ms.complex128

_builtin_bool = __builtins__["bool"] if isinstance(__builtins__, dict) else __builtins__.bool
_builtin_int = __builtins__["int"] if isinstance(__builtins__, dict) else __builtins__.int
_builtin_float = __builtins__["float"] if isinstance(__builtins__, dict) else __builtins__.float

all_float_type = (float16, float32, float64, bfloat16)
all_complex_type = (complex64, complex128)
all_int_type = (int8, int16, int32, int64, uint8, uint16, uint32, uint64)
all_signed_type = (int8, int16, int32, int64, float16, float32, float64, bfloat16, complex64, complex128)

# torch's names, used by repr(tensor) and error messages.
_TORCH_NAME = {
    float16: "torch.float16", float32: "torch.float32", float64: "torch.float64", bfloat16: "torch.bfloat16",
    int8: "torch.int8", int16: "torch.int16", int32: "torch.int32", int64: "torch.int64",
    uint8: "torch.uint8", uint16: "torch.uint16", uint32: "torch.uint32", uint64: "torch.uint64",
    bool: "torch.bool", complex64: "torch.complex64", complex128: "torch.complex128",
}
# Names torch uses in type-promotion error messages ("result type Float can't be cast to ... Long").
_SCALAR_NAME = {
    float16: "Half", float32: "Float", float64: "Double", bfloat16: "BFloat16", int8: "Char", int16: "Short",
    int32: "Int", int64: "Long", uint8: "Byte", bool: "Bool", complex64: "ComplexFloat",
    complex128: "ComplexDouble",
}
_TO_NUMPY = {
    float16: np.float16, float32: np.float32, float64: np.float64, int8: np.int8, int16: np.int16,
    int32: np.int32, int64: np.int64, uint8: np.uint8, uint16: np.uint16, uint32: np.uint32,
    uint64: np.uint64, bool: np.bool_, complex64: np.complex64, complex128: np.complex128,
}
_FROM_NUMPY = {np.dtype(v): k for k, v in _TO_NUMPY.items()}
_ITEMSIZE = {
    float16: 2, bfloat16: 2, float32: 4, float64: 8, int8: 1, int16: 2, int32: 4, int64: 8, uint8: 1,
    uint16: 2, uint32: 4, uint64: 8, bool: 1, complex64: 8, complex128: 16,
}


def _add_torch_attributes() -> None:
    """Give MindSpore's dtype classes torch.dtype's read-only attributes (additive only)."""
    for cls in {type(d) for d in _TORCH_NAME}:
        if "is_floating_point" in cls.__dict__:
            continue
        cls.is_floating_point = property(lambda d: d in all_float_type)
        cls.is_complex = property(lambda d: d in all_complex_type)
        cls.is_signed = property(lambda d: d in all_signed_type)
        cls.itemsize = property(lambda d: _ITEMSIZE[d])


_add_torch_attributes()

_ms_str, _ms_repr = dtype.__str__, dtype.__repr__


def _called_by_mindspore() -> _builtin_bool:
    """Whether the code asking for a dtype's name (two frames up: past `_torch_named`'s function) is MindSpore's
    own Python."""
    try:
        name = sys._getframe(2).f_globals.get("__name__", "")
    except ValueError:  # called from C with no Python caller
        return False
    return name.startswith("mindspore.") or name == "mindspore"


def _torch_named(ms_name: Any) -> Any:
    """The __str__/__repr__ of the dtype classes: torch's name (`torch.float32`) for user code, MindSpore's own
    (`ms_name`, its `Float32`) for MindSpore's Python code, which parses it (checkpoint writer/loader, ScalarCast,
    parallel checkpoint transforms)."""
    def name(d: Any) -> str:
        torch_name = _TORCH_NAME.get(d)
        if torch_name is None or _called_by_mindspore():
            return ms_name(d)
        return torch_name
    return name


_dtype_str, _dtype_repr = _torch_named(_ms_str), _torch_named(_ms_repr)


def _by_name(name: str) -> Any:
    """What a pickled torch dtype loads as: the one object (`pickle.loads(pickle.dumps(torch.float32)) is
    torch.float32`, as in torch; MindSpore's own pickling builds a new, merely equal, object)."""
    return globals()[name]


def _dtype_reduce(d: Any) -> Any:
    name = _TORCH_NAME.get(d)
    if name is None:  # MindSpore's generic `Float`/`Int`...: its own state
        return (copyreg.__newobj__, (type(d),), d.__getstate__())
    return (_by_name, (name[6:],))


def _add_torch_names() -> None:
    """str/repr/pickling of the dtype classes torch has (Float, Int, UInt, Bool, Complex, BFloat; MindSpore defines
    str/repr on their common base, which keeps them for its other types)."""
    for cls in {type(d) for d in _TORCH_NAME}:
        cls.__str__ = _dtype_str
        cls.__repr__ = _dtype_repr
        cls.__reduce__ = _dtype_reduce
        cls.__deepcopy__ = lambda d, memo: d  # immutable, as torch's: `copy.deepcopy(model_config)` keeps `is`


_add_torch_names()


def torch_name(d: Any) -> str:
    return _TORCH_NAME.get(d, str(d))


def scalar_name(d: Any) -> str:
    return _SCALAR_NAME.get(d, str(d))


# The names torch's C++ checks print for a dtype (caffe2::TypeMeta: "expected dtype float for `end` but got dtype
# long int").
_CPP_NAME = {
    float16: "c10::Half", float32: "float", float64: "double", bfloat16: "c10::BFloat16", int8: "signed char",
    int16: "short int", int32: "int", int64: "long int", uint8: "unsigned char", bool: "bool",
    complex64: "c10::complex<float>", complex128: "c10::complex<double>",
}


def cpp_name(d: Any) -> str:
    return _CPP_NAME.get(d, scalar_name(d).lower())


def to_numpy_dtype(d: Any) -> Any:
    """numpy dtype of a torch/MindSpore dtype (bfloat16 has none: callers widen it to float32)."""
    try:
        return _TO_NUMPY[d]
    except KeyError:
        raise TypeError(f"{torch_name(d)} has no numpy equivalent") from None


def from_numpy_dtype(d: Any) -> Any:
    try:
        return _FROM_NUMPY[np.dtype(d)]
    except KeyError:
        raise TypeError(
            f"can't convert np.ndarray of type {np.dtype(d)}. The only supported types are: float64, float32, "
            "float16, complex64, complex128, int64, int32, int16, int8, uint8, and bool."
        ) from None


_PY_TYPES = {_builtin_float: None, _builtin_int: int64, _builtin_bool: bool, complex: complex64}


def to_dtype(d: Any) -> Optional[Any]:
    """Normalise what users pass as dtype= : a torch/MindSpore dtype, a numpy dtype, python float/int/bool."""
    if d is None or isinstance(d, dtype):
        return d
    if d in _PY_TYPES:
        return _PY_TYPES[d] or get_default_dtype()
    if isinstance(d, str):
        name = d[6:] if d.startswith("torch.") else d
        got = globals().get(name)
        if isinstance(got, dtype):
            return got
        raise TypeError(f"invalid dtype string: {d!r}")
    try:
        return from_numpy_dtype(d)
    except TypeError:
        raise TypeError(f"dtype must be a torch.dtype, got {d!r}") from None


# ----------------------------------------------------------------------------------------------- defaults
_default_dtype = float32


def get_default_dtype() -> Any:
    """The dtype of float tensors created without an explicit dtype (torch.get_default_dtype)."""
    return _default_dtype


def set_default_dtype(d: Any) -> None:
    """torch.set_default_dtype: only floating point dtypes are accepted, as in torch."""
    global _default_dtype
    d = to_dtype(d)
    if d not in (float16, float32, float64, bfloat16):
        raise TypeError(f"only floating-point types are supported as the default type, got {torch_name(d)}")
    _default_dtype = d


_TENSOR_TYPE_NAMES = {
    "torch.FloatTensor": float32, "torch.DoubleTensor": float64, "torch.HalfTensor": float16,
    "torch.BFloat16Tensor": bfloat16, "torch.cuda.FloatTensor": float32, "torch.cuda.DoubleTensor": float64,
    "torch.cuda.HalfTensor": float16, "torch.cuda.BFloat16Tensor": bfloat16,
}


def set_default_tensor_type(t: Any) -> None:
    """torch.set_default_tensor_type('torch.DoubleTensor') or a tensor type object."""
    name = t if isinstance(t, str) else getattr(t, "__name__", None)
    if isinstance(t, str):
        key = t
    else:
        key = getattr(t, "_torch_type_name", None) or f"torch.{name}"
    if key not in _TENSOR_TYPE_NAMES:
        raise TypeError(f"invalid type: {t!r}; only floating-point tensor types can be the default")
    set_default_dtype(_TENSOR_TYPE_NAMES[key])


# ---------------------------------------------------------------------------------------------- promotion
# torch's promotion lattice by category: bool < integer < floating < complex.
_CATEGORY = {bool: 0, uint8: 1, int8: 1, int16: 1, int32: 1, int64: 1, uint16: 1, uint32: 1, uint64: 1,
             float16: 2, bfloat16: 2, float32: 2, float64: 2, complex64: 3, complex128: 3}


def category(d: Any) -> _builtin_int:
    return _CATEGORY[d]


def promote_types(a: Any, b: Any) -> Any:
    """torch.promote_types for two dtypes."""
    if a is b or a == b:
        return a
    ca, cb = _CATEGORY[a], _CATEGORY[b]
    if ca != cb:
        hi, lo = (a, b) if ca > cb else (b, a)
        if _CATEGORY[hi] == 3 and lo == float64:
            return complex128
        return hi
    if ca == 2:
        if {a, b} == {float16, bfloat16}:
            return float32
        return a if _ITEMSIZE[a] >= _ITEMSIZE[b] else b
    if ca == 1:
        if {a, b} == {uint8, int8}:
            return int16
        if a == uint8:
            return b if _ITEMSIZE[b] > 1 else int16
        if b == uint8:
            return a if _ITEMSIZE[a] > 1 else int16
        return a if _ITEMSIZE[a] >= _ITEMSIZE[b] else b
    if ca == 3:
        return a if _ITEMSIZE[a] >= _ITEMSIZE[b] else b
    return a


def scalar_dtype(x: Any) -> Any:
    """The dtype torch gives a Python scalar on its own. numpy integer scalars count as Python ints (int32 tensor
    + np.int64(2) stays int32, as in torch); torch treats np.bool_ as a float scalar, and so does this."""
    if isinstance(x, _builtin_bool):
        return bool
    if isinstance(x, (_builtin_int, np.integer)):
        return int64
    if isinstance(x, (complex, np.complexfloating)):
        return complex64 if _default_dtype != float64 else complex128
    return _default_dtype


def result_type_of(tensor_dtypes: list, scalars: list = (), zero_dim_dtypes: list = ()) -> Any:
    """torch's result_type: dimensioned tensors win over 0-d tensors, which win over Python scalars,
    unless the lower-priority operand is of a higher category (bool < int < float < complex)."""
    def fold(ds: list) -> Optional[Any]:
        out = None
        for d in ds:
            out = d if out is None else promote_types(out, d)
        return out

    res = fold(list(tensor_dtypes))
    for is_scalar, group in ((False, list(zero_dim_dtypes)), (True, [scalar_dtype(s) for s in scalars])):
        g = fold(group)
        if g is None:
            continue
        if res is None:
            res = g
        elif _CATEGORY[g] > _CATEGORY[res]:
            if _CATEGORY[g] == 3 and _CATEGORY[res] == 2:
                res = complex128 if res == float64 else complex64  # float tensor + complex: keeps its precision
            elif _CATEGORY[g] == 2 and is_scalar:
                res = _default_dtype  # int tensor + 1.5 -> the default float dtype
            elif _CATEGORY[g] == 3 and is_scalar:
                res = complex128 if _default_dtype == float64 else complex64  # int tensor + 1j
            else:
                res = g  # a 0-d tensor of a higher category: its own dtype (int tensor + 0-d float64 -> float64)
    return res


def can_cast(from_: Any, to: Any) -> _builtin_bool:
    """torch.can_cast: casting to a lower category is not allowed (float->int, int->bool, complex->float)."""
    return _CATEGORY[from_] <= _CATEGORY[to]


# --------------------------------------------------------------------------------------------- finfo/iinfo
class finfo:
    """torch.finfo(dtype): machine limits of floating point types."""

    def __init__(self, type: Any = None) -> None:  # noqa: A002 - torch's argument name
        type = get_default_dtype() if type is None else to_dtype(type)
        if type not in all_float_type and type not in all_complex_type:
            raise TypeError(f"torch.finfo() requires a floating point input type, got {torch_name(type)}")
        self.dtype = torch_name(type).replace("torch.", "")
        if type == bfloat16:
            self.bits, self.eps, self.max, self.min = 16, 0.0078125, 3.3895313892515355e38, -3.3895313892515355e38
            self.tiny = self.smallest_normal = 1.1754943508222875e-38
            self.resolution = 0.01
        else:
            npd = {complex64: np.float32, complex128: np.float64}.get(type) or _TO_NUMPY[type]
            fi = np.finfo(npd)
            self.bits = fi.bits
            self.eps = _builtin_float(fi.eps)
            self.max = _builtin_float(fi.max)
            self.min = _builtin_float(fi.min)
            self.tiny = self.smallest_normal = _builtin_float(fi.tiny)
            self.resolution = _builtin_float(fi.resolution)

    def __repr__(self) -> str:
        return (f"finfo(resolution={self.resolution}, min={self.min:.6e}, max={self.max:.6e}, eps={self.eps:.6e}, "
                f"smallest_normal={self.smallest_normal:.6e}, tiny={self.tiny:.6e}, dtype={self.dtype})")


class iinfo:
    """torch.iinfo(dtype): limits of integer types."""

    def __init__(self, type: Any) -> None:  # noqa: A002
        type = to_dtype(type)
        if type not in all_int_type and type != bool:
            raise TypeError(f"torch.iinfo() requires an integer input type, got {torch_name(type)}")
        ii = np.iinfo(_TO_NUMPY[type]) if type != bool else None
        self.bits = ii.bits if ii else 8
        self.max = _builtin_int(ii.max) if ii else 1
        self.min = _builtin_int(ii.min) if ii else 0
        self.dtype = torch_name(type).replace("torch.", "")

    def __repr__(self) -> str:
        return f"iinfo(min={self.min}, max={self.max}, dtype={self.dtype})"
