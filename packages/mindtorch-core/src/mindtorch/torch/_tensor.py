"""class Tensor: a `mindspore.Tensor` subclass with torch's face.

Kept thin on purpose (tinygrad-style small core): construction, the properties torch users read, and the
Python protocols. Every math/shape/indexing method is attached from the op table (`_ops`) by
`_registry.install_methods`, so a method and its `torch.xxx` function are one implementation.
"""
from __future__ import annotations

import operator
from collections.abc import Sequence
from numbers import Number
from typing import Any, Callable, Iterator, Tuple

import mindspore as ms
import numpy as np

from . import _dtype as D
from . import _ms
from ._device import as_device, current_device, device
from ._ops import _registry
from ._tensor_str import tensor_repr
from .autograd._tensor_mixin import TensorAutogradMixin

_MsTensor = ms.Tensor


_tuple_new = tuple.__new__
_index = operator.index


def torch_type_name(obj: Any) -> str:
    """The type name torch's C++ messages print (CPython's tp_name): "numpy.ndarray" for an extension type, the bare
    name for builtins and Python classes ("list", "Tensor")."""
    t = type(obj)
    if t.__module__ == "builtins" or t.__flags__ & (1 << 9):  # Py_TPFLAGS_HEAPTYPE: a class defined in Python
        return t.__name__
    return f"{t.__module__}.{t.__name__}"


class Size(tuple):
    """torch.Size: a tuple of ints that prints as torch.Size([...]); `+` and `*` with tuples and ints stay Sizes."""

    def __new__(cls, seq: Any = ()) -> "Size":
        items = []
        for i, s in enumerate(seq):
            try:
                items.append(int(_index(s)))  # (torch.Size([True]) is (1,))
            except TypeError:
                raise TypeError(f"torch.Size() takes an iterable of 'int' (item {i} is '{torch_type_name(s)}')") \
                    from None
        return _tuple_new(cls, items)

    def __repr__(self) -> str:
        return f"torch.Size({list(self)})"

    __str__ = __repr__

    def numel(self) -> int:
        n = 1
        for s in self:
            n *= s
        return n

    def __getitem__(self, item: Any) -> Any:
        out = tuple.__getitem__(self, item)
        return _tuple_new(Size, out) if isinstance(item, slice) else out

    # `+` and `*` as torch.Size's sequence concat/repeat: with a tuple / an int a Size; anything else is first left to
    # the other operand's reflected operator, as Python would (`size + ndarray` is numpy's elementwise sum), then
    # refused with torch's message (a Python class that defines `__add__`/`__mul__` loses tuple's fallback)
    def __add__(self, other: Any) -> Any:
        if isinstance(other, tuple):
            return _tuple_new(Size, tuple.__add__(self, other))
        return _reflected_or_raise(self, other, "__radd__",
                                   f"can only concatenate tuple (not {torch_type_name(other)}) to torch.Size")

    def __radd__(self, other: Any) -> Any:
        return _tuple_new(Size, tuple.__add__(other, self)) if isinstance(other, tuple) else NotImplemented

    def __mul__(self, n: Any) -> Any:
        if hasattr(type(n), "__index__"):
            return _tuple_new(Size, tuple.__mul__(self, n))
        return _reflected_or_raise(self, n, "__rmul__",
                                   f"can't multiply sequence by non-int of type '{torch_type_name(n)}'")

    def __rmul__(self, n: Any) -> Any:
        if hasattr(type(n), "__index__"):
            return _tuple_new(Size, tuple.__mul__(self, n))
        raise TypeError(f"can't multiply sequence by non-int of type '{torch_type_name(n)}'")

    def __reduce__(self):
        return (Size, (tuple(self),))


def _reflected_or_raise(size: Size, other: Any, reflected: str, message: str) -> Any:
    fn = getattr(type(other), reflected, None)
    res = NotImplemented if fn is None else fn(other, size)
    if res is NotImplemented:
        raise TypeError(message)
    return res


# ------------------------------------------------------------------------------ torch.tensor's reading of data
_INT64_MIN, _INT64_MAX = -(2 ** 63), 2 ** 63 - 1


def _is_sequence(x: Any) -> bool:
    """What torch.tensor descends into (CPython's PySequence_Check, less strings): lists, tuples, numpy arrays and
    other sequences - not tensors, which are scalars there."""
    return isinstance(x, (list, tuple, np.ndarray)) or (
        isinstance(x, Sequence) and not isinstance(x, (str, bytes, _MsTensor)))


def _sizes(data: Any) -> tuple:
    """torch's compute_sizes: the lengths along the first elements (`len()` of a 0-d array fails as in torch)."""
    sizes = []
    while _is_sequence(data):
        sizes.append(len(data))
        if not sizes[-1]:
            break
        data = data[0]
    return tuple(sizes)


def check_numpy_layout(arr: np.ndarray) -> None:
    """torch's refusals of an array it cannot take as it is (torch.from_numpy, torch.tensor, torch.as_tensor), in
    torch's order."""
    if any(s % arr.itemsize for s in arr.strides):
        raise ValueError("given numpy array strides not a multiple of the element byte size. Copy the numpy array to "
                         "reallocate the memory.")
    if any(s < 0 for s in arr.strides):
        raise ValueError("At least one stride in the given numpy array is negative, and tensors with negative "
                         "strides are not currently supported. (You can probably work around this by making a copy "
                         "of your array  with array.copy().) ")
    if not arr.dtype.isnative:
        raise ValueError("given numpy array has byte order different from the native byte order. Conversion between "
                         "byte orders is currently not supported.")


def _as_real(x: Any) -> float:
    """A leaf of a float tensor, as torch stores it (PyFloat_AsDouble): numbers and one-element tensors only."""
    t = type(x)
    if isinstance(x, (str, bytes)) or not (hasattr(t, "__float__") or hasattr(t, "__index__")):
        raise TypeError(f"must be real number, not {torch_type_name(x)}")
    return float(x)


def _as_int(x: Any) -> Any:
    """A leaf of an integer tensor: floats truncate (when cast), anything else must be an index (Python's TypeError,
    or a tensor's own `__index__` error), within int64."""
    if isinstance(x, (float, np.floating)):
        return float(x)
    v = _index(x)
    if not _INT64_MIN <= v <= _INT64_MAX:
        raise ValueError("Overflow when unpacking long long")
    return int(v)


def _as_bool(x: Any) -> bool:
    return bool(x) if isinstance(x, (float, complex, np.floating, np.complexfloating)) else bool(_as_int(x))


def _leaf_reader(dtype: Any) -> Callable[[Any], Any]:
    if dtype in D.all_complex_type:
        return complex
    if dtype in D.all_float_type:
        return _as_real
    return _as_bool if dtype == D.bool else _as_int


def _store(obj: Any, sizes: tuple, dim: int, read: Callable[[Any], Any], out: list) -> None:
    """torch's recursive_store: every leaf at depth len(sizes), each sequence of the length at its depth."""
    if dim == len(sizes):
        out.append(read(obj))
        return
    try:
        seq = list(obj)  # (PySequence_Fast: any iterable, e.g. a tensor below the first elements)
    except TypeError:
        raise TypeError("not a sequence") from None
    if len(seq) != sizes[dim]:
        raise ValueError(f"expected sequence of length {sizes[dim]} at dim {dim} (got {len(seq)})")
    for x in seq:
        _store(x, sizes, dim + 1, read, out)


def _read_as_torch(arr: np.ndarray, d: Any) -> bool:
    """Whether numpy read nested data with torch's values for a `d` result: numbers, no complex values into a real
    dtype, no ints beyond int64 into an integer dtype (numpy reads those as uint64, float64 or objects)."""
    kind = arr.dtype.kind
    if kind in "bi":
        return True
    if kind == "f":
        return d not in D.all_int_type or bool((np.abs(arr) < 2.0 ** 63).all())
    if kind == "c":
        return d in D.all_complex_type or d == D.bool
    return kind == "u" and (arr.dtype.itemsize < 8 or d not in D.all_int_type)


def tensor_data(data: Any, dtype: Any = None) -> Tuple[np.ndarray, Any]:
    """torch.tensor's reading of non-tensor data: (its values as a numpy array, not yet cast; the result dtype -
    `dtype`, or torch's inference).

    A numpy array is taken as torch takes one (its dtype; torch's errors for a foreign byte order or negative
    strides). Nested sequences are read as torch reads them: the shape from the first elements, a tensor inside as
    one scalar ("only one element tensors can be converted to Python scalars" for more), torch's errors for ragged
    data ("expected sequence of length 2 at dim 1 (got 1)"), ints beyond int64, complex values into a real dtype.
    numpy reads regular data in C; only data it reads differently (tensors inside, ragged or out-of-range values,
    strings, objects) goes through torch's element-by-element rules in Python.
    """
    if isinstance(data, np.ndarray):
        check_numpy_layout(data)
        d = D.from_numpy_dtype(data.dtype)  # (torch's error for an array dtype it lacks, whatever `dtype`)
        return data, dtype or d
    sizes = _sizes(data)
    d = dtype or infer_dtype(data)
    try:
        arr = np.asarray(data)
    except (ValueError, TypeError):  # ragged, or an element numpy cannot read
        arr = None
    if arr is not None and arr.shape == sizes and _read_as_torch(arr, d):
        return arr, d
    if 0 in sizes:  # nothing to read (torch also takes [[], [1]] as a 2x0 tensor)
        return np.zeros(sizes), d
    out: list = []
    _store(data, sizes, 0, _leaf_reader(d), out)
    return np.array(out).reshape(sizes), d


def infer_dtype(data: Any) -> Any:
    """torch.tensor's dtype inference: floats -> default dtype, ints -> int64, bools -> bool."""
    if isinstance(data, _MsTensor):
        return data.dtype
    if isinstance(data, (np.ndarray, np.generic)):
        return D.from_numpy_dtype(data.dtype.newbyteorder("="))  # (an array inside a list is read by value)
    if isinstance(data, bool):
        return D.bool
    if isinstance(data, int):
        return D.int64
    if isinstance(data, float):
        return D.get_default_dtype()
    if isinstance(data, complex):
        return D.scalar_dtype(data)  # complex64, complex128 under a float64 default dtype (torch)
    if isinstance(data, (str, bytes)):
        raise TypeError(f"new(): invalid data type '{torch_type_name(data)}'")
    if isinstance(data, (list, tuple, range)) or isinstance(data, Sequence):
        best = None  # (torch takes any Python sequence: range, deque, ...)
        for x in data:
            d = infer_dtype(x)
            best = d if best is None else D.promote_types(best, d)
        return best if best is not None else D.get_default_dtype()
    raise RuntimeError(f"Could not infer dtype of {torch_type_name(data)}")


def from_numpy_array(arr: np.ndarray, dtype: Any = None) -> "Tensor":
    """A mindtorch Tensor over `arr` (zero-copy when no cast is needed)."""
    if dtype == D.bfloat16:
        t = _MsTensor(np.ascontiguousarray(arr, dtype=np.float32), dtype=D.bfloat16)
    else:
        if dtype is not None:
            arr = arr.astype(D.to_numpy_dtype(dtype), copy=False)
        if not arr.flags["C_CONTIGUOUS"]:
            arr = np.ascontiguousarray(arr)
        t = ms.from_numpy(arr) if arr.ndim else _MsTensor(arr)
    t.__class__ = Tensor
    return t


class Tensor(TensorAutogradMixin, _MsTensor):
    """torch.Tensor on MindSpore.

    `Tensor(data)` copies data into a tensor of the default dtype (float32), `Tensor(2, 3)` makes an
    uninitialised (zero-filled) 2x3 tensor, `Tensor(ms_tensor)` re-classes a MindSpore tensor.
    MindSpore-style construction (`Tensor(input_data=..., dtype=ms.float32)`) also works, so MindSpore's own
    code can build our tensors.
    """

    _torch_type_name = "torch.FloatTensor"
    # as torch.Tensor: numpy scalars defer to the tensor's reflected operators, so np.float32(2) * t is a Tensor
    # (with autograd) rather than a numpy array
    __array_priority__ = 1000

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        if self.__dict__.pop("_mt_made", False):
            return  # built by `_make_subclass` in a subclass's __new__: Python calls __init__ with its arguments
        if kwargs and ("input_data" in kwargs or "shape" in kwargs or "init" in kwargs):
            _MsTensor.__init__(self, *args, **kwargs)  # MindSpore's signature
            return
        dev = kwargs.pop("device", None)
        dtype = kwargs.pop("dtype", None)
        if kwargs:
            raise TypeError(f"Tensor(): unexpected keyword arguments {sorted(kwargs)}")
        if len(args) == 1 and isinstance(args[0], _MsTensor):
            src = args[0]
            _MsTensor.__init__(self, src if dtype is None else src.astype(dtype))
        elif args and all(isinstance(a, (int, np.integer)) and not isinstance(a, bool) for a in args):
            shape = tuple(int(a) for a in args)
            d = dtype or D.get_default_dtype()
            _MsTensor.__init__(self, np.zeros(shape, dtype=np.float32 if d == D.bfloat16 else D.to_numpy_dtype(d)),
                               dtype=d)
        elif len(args) == 1 and isinstance(args[0], (tuple, Size)) and isinstance(args[0], Size):
            _MsTensor.__init__(self, np.zeros(tuple(args[0]), dtype=np.float32))
        elif not args:
            _MsTensor.__init__(self, np.zeros((0,), dtype=np.float32))
        elif len(args) == 1:
            if not _is_sequence(args[0]):
                raise TypeError(f"new(): data must be a sequence (got {torch_type_name(args[0])})")
            arr, d = tensor_data(args[0], dtype or D.get_default_dtype())
            if d == D.bfloat16:
                _MsTensor.__init__(self, arr.astype(np.float32), dtype=d)
            else:  # (np.array, not np.ascontiguousarray: the latter makes a 0-d array 1-d)
                _MsTensor.__init__(self, np.array(arr, dtype=D.to_numpy_dtype(d), order="C"))
        else:
            raise TypeError(f"Tensor(): invalid arguments {args!r}")
        if dev is not None:
            self._device = as_device(dev)

    # ------------------------------------------------------------------------------------ metadata
    @property
    def shape(self) -> Size:  # type: ignore[override]
        # MindSpore's shape is already a tuple of ints: no per-element int() (x.shape ~1 us -> ~0.25 us, measured)
        return _tuple_new(Size, _MsTensor.shape.fget(self))

    def size(self, dim: Any = None) -> Any:  # type: ignore[override]
        shape = _MsTensor.shape.fget(self)
        if dim is None:
            return _tuple_new(Size, shape)
        n = len(shape)
        if not -max(n, 1) <= dim < max(n, 1):
            raise IndexError(
                f"Dimension out of range (expected to be in range of [{-max(n, 1)}, {max(n, 1) - 1}], but got {dim})")
        return shape[dim] if n else 1

    def dim(self) -> int:
        return len(_MsTensor.shape.fget(self))

    def ndimension(self) -> int:
        return self.dim()

    def numel(self) -> int:
        n = 1
        for s in _MsTensor.shape.fget(self):
            n *= s
        return n

    nelement = numel

    def element_size(self) -> int:
        return D._ITEMSIZE[self.dtype]

    @property
    def nbytes(self) -> int:  # type: ignore[override]
        return self.numel() * self.element_size()

    @property
    def itemsize(self) -> int:  # type: ignore[override]
        return self.element_size()

    @property
    def device(self) -> device:  # type: ignore[override]
        d = self.__dict__.get("_device") if hasattr(self, "__dict__") else None
        return d if d is not None else current_device()

    @property
    def is_cuda(self) -> bool:
        return self.device.type == "cuda"

    @property
    def is_cpu(self) -> bool:
        return self.device.type == "cpu"

    @property
    def is_sparse(self) -> bool:
        return False

    @property
    def is_quantized(self) -> bool:
        return False

    @property
    def is_meta(self) -> bool:  # type: ignore[override]
        return False

    @property
    def layout(self) -> Any:
        from ._settings import strided

        return strided

    def pin_memory(self, device: Any = None) -> "Tensor":  # type: ignore[override]
        """A copy in page-locked host memory, for faster transfers to the accelerator (MindSpore's pin_memory). On
        the CPU target there is no accelerator to pin for: torch's error, as on a machine without one."""
        if _ms.device_target() == "CPU":
            raise RuntimeError("Cannot access accelerator device when none is available.")
        out = _MsTensor.pin_memory(self)
        out.__class__ = Tensor
        return out

    @staticmethod
    def _make_subclass(cls: type, data: Any, require_grad: bool = False, *args: Any, **kwargs: Any) -> Any:
        """torch's `Tensor._make_subclass(cls, data, require_grad)`, which custom Parameter/tensor classes call in
        `__new__`: an instance of `cls` sharing `data`'s storage, detached, requiring grad as asked. (MindSpore's
        own `_make_subclass(cls, tensor)` stays on mindspore.Tensor.)"""
        if not (isinstance(cls, type) and issubclass(cls, Tensor)):
            raise TypeError(f"_make_subclass: cls must be a subclass of torch.Tensor, got {cls!r}")
        out = data.detach()
        out.__class__ = cls
        out.requires_grad_(bool(require_grad))
        out.__dict__["_mt_made"] = True
        return out

    def is_floating_point(self) -> bool:
        return self.dtype in D.all_float_type

    def is_complex(self) -> bool:  # type: ignore[override]
        return self.dtype in D.all_complex_type

    def is_signed(self) -> bool:  # type: ignore[override]
        return self.dtype in D.all_signed_type

    @classmethod
    def __torch_function__(cls, func: Any, types: Any, args: Any = (), kwargs: Any = None) -> Any:
        """torch's default override (what a subclass's `super().__torch_function__(...)` reaches): call `func`,
        and return Tensor results as instances of `cls`. mindtorch's own functions do not dispatch through it
        (see torch.overrides); it serves torch.overrides.handle_torch_function and subclasses."""
        if not all(issubclass(cls, t) for t in types):
            return NotImplemented
        ret = func(*args, **(kwargs or {}))

        def convert(r: Any) -> Any:
            if isinstance(r, Tensor) and not isinstance(r, cls):
                return r.as_subclass(cls)
            if isinstance(r, (tuple, list)) and not hasattr(r, "_fields"):
                return type(r)(convert(v) for v in r)
            return r

        return convert(ret)

    @property
    def output_nr(self) -> int:
        """Which output of its grad_fn this tensor is: 0 for leaves (as torch); for a non-leaf, the output index
        in the MindSpore kernel that produced it. Limit: where mindtorch composes a multi-output torch op from
        single-output kernels (split, chunk, unbind, std_mean), torch numbers the outputs 0, 1, ... and mindtorch
        answers 0 for each."""
        if self._is_leaf:
            return 0
        return _ms.output_index(self)

    @property
    def is_vulkan(self) -> bool:
        return False

    @property
    def is_mkldnn(self) -> bool:
        return False

    @property
    def is_xla(self) -> bool:
        return False

    @property
    def is_ipu(self) -> bool:
        return False

    @property
    def volatile(self) -> bool:
        """Removed in torch 0.4; 1.12 still answers False with this warning."""
        import warnings

        warnings.warn("volatile was removed (Variable.volatile is always False)", stacklevel=2)
        return False

    @property
    def names(self) -> tuple:
        """Named tensors are not supported: every dimension is unnamed (torch's answer for an unnamed tensor)."""
        return (None,) * self.ndim

    def reinforce(self, reward: Any) -> None:
        """Removed in torch 0.4; torch 1.12 keeps the method to raise this error."""
        raise RuntimeError(
            "reinforce() was removed.\nUse torch.distributions instead.\nSee "
            "https://pytorch.org/docs/master/distributions.html\n\nInstead of:\n\nprobs = policy_network(state)\n"
            "action = probs.multinomial()\nnext_state, reward = env.step(action)\naction.reinforce(reward)\n"
            "action.backward()\n\nUse:\n\nprobs = policy_network(state)\n# NOTE: categorical is equivalent to what "
            "used to be called multinomial\nm = torch.distributions.Categorical(probs)\naction = m.sample()\n"
            "next_state, reward = env.step(action)\nloss = -m.log_prob(action) * reward\nloss.backward()\n")

    def __dlpack__(self, stream: Any = None) -> Any:
        from .utils.dlpack import to_dlpack

        return to_dlpack(self)

    def __dlpack_device__(self) -> tuple:
        return (1, 0)  # kDLCPU: MindSpore's CPU target (the only one DLPack exchange is tested on)

    def get_device(self) -> int:
        d = self.device
        return -1 if d.type == "cpu" else (d.index or 0)

    # ---------------------------------------------------------------------------------------- layout
    def stride(self, dim: Any = None) -> Any:  # type: ignore[override]
        """Strides in elements (a tuple, or one int for `dim`), as MindSpore's view kernels laid them out."""
        st = tuple(_MsTensor.stride(self))
        if dim is None:
            return st
        n = len(st)
        if not -max(n, 1) <= dim < max(n, 1):
            raise IndexError(
                f"Dimension out of range (expected to be in range of [{-max(n, 1)}, {max(n, 1) - 1}], but got {dim})")
        return st[dim]

    def storage_offset(self) -> int:  # type: ignore[override]
        return int(_MsTensor.storage_offset(self))

    def data_ptr(self) -> int:  # type: ignore[override]
        return int(_MsTensor.data_ptr(self))

    def is_contiguous(self, memory_format: Any = None) -> bool:  # type: ignore[override]
        """Row-major contiguity, or with `memory_format=torch.channels_last(_3d)` whether the strides are NHWC's
        (NDHWC's) - torch's rule: dims of size 1 are skipped; a tensor of another rank is not."""
        from ._settings import channels_last, channels_last_3d

        if memory_format is channels_last or memory_format is channels_last_3d:
            order = (1, 3, 2, 0) if memory_format is channels_last else (1, 4, 3, 2, 0)
            if self.dim() != len(order):
                return False
            shape, strides, expected = self.shape, self.stride(), 1
            for d in order:
                if shape[d] != 1:
                    if strides[d] != expected:
                        return False
                    expected *= shape[d]
            return True
        return bool(_MsTensor.is_contiguous(self))

    @property
    def T(self) -> "Tensor":  # type: ignore[override]
        """All dims reversed (a view)."""
        n = self.dim()
        return self.permute(tuple(range(n - 1, -1, -1))) if n > 1 else self.view(self.shape)

    @property
    def mT(self) -> "Tensor":
        """The last two dims swapped (a view)."""
        if self.dim() < 2:
            raise RuntimeError("tensor.mT is only supported on matrices or batches of matrices. Got 1-D tensor.")
        return self.transpose(-2, -1)

    @property
    def H(self) -> "Tensor":
        """Conjugate transpose of a matrix."""
        if self.dim() != 2 and self.dim() != 0:
            raise RuntimeError(f"tensor.H is only supported on matrices (2-D tensors). Got {self.dim()}-D tensor.")
        return self.adjoint() if self.dim() == 2 else self

    @property
    def mH(self) -> "Tensor":
        return self.adjoint()

    @property
    def real(self) -> "Tensor":  # type: ignore[override]
        """The real part (a property, as in torch; `torch.real(x)` is the function). A real tensor is returned
        itself; for a complex tensor the part is a copy (MindSpore has no complex views)."""
        return _registry._DISPATCHERS["real"](self)

    @real.setter
    def real(self, value: Any) -> None:
        if self.dtype in D.all_complex_type:
            value = _registry._DISPATCHERS["complex"](_as_part(value, self), _registry._DISPATCHERS["imag"](self))
        _registry.write_back(self, value)

    @property
    def imag(self) -> "Tensor":  # type: ignore[override]
        """The imaginary part of a complex tensor (a property, as in torch; a copy, not a view)."""
        return _registry._DISPATCHERS["imag"](self)

    @imag.setter
    def imag(self, value: Any) -> None:
        if self.dtype not in D.all_complex_type:
            raise RuntimeError("imag is not implemented for tensors with non-complex dtypes.")
        _registry.write_back(
            self, _registry._DISPATCHERS["complex"](_registry._DISPATCHERS["real"](self), _as_part(value, self)))

    # No `__getattr__` on purpose: MindSpore's C++ probes `__ms_dispatch__`/`__fallback__` on every tensor-subclass
    # argument of every op, and a Python `__getattr__` doubled the cost of each probe (~0.6 us instead of ~0.3 us,
    # up to 6 probes for `a + b`). A torch 1.12 Tensor API we lack is a class-level stub instead
    # (`_unsupported.install_tensor_stubs`, run by `_registry.install_methods`): reading it raises the clear
    # NotImplementedError naming the API (also an AttributeError, so hasattr() stays False).

    def __dir__(self) -> Any:
        from ._unsupported import TENSOR_STUBS

        return [n for n in super().__dir__() if n not in TENSOR_STUBS]

    # ------------------------------------------------------------------------------- to python/numpy
    def numpy(self) -> np.ndarray:
        """A numpy array sharing memory with this tensor (torch's contract).

        Deviation from torch: a tensor that requires grad is not refused. `mindspore.value_and_grad` marks its
        inputs and its returned loss as requiring grad, and the manual's functional loop prints `loss.numpy()`;
        the values are the same either way (the array is outside autograd, as torch's `detach().numpy()`).
        """
        if self.dtype == D.bfloat16:
            raise TypeError("Got unsupported ScalarType BFloat16")
        return _ms.host_view(self)

    def item(self) -> Any:  # type: ignore[override]
        if self.numel() != 1:
            raise RuntimeError(
                f"a Tensor with {self.numel()} elements cannot be converted to Scalar")
        v = self._item()
        return v.item() if isinstance(v, np.generic) else v

    def tolist(self) -> Any:  # type: ignore[override]
        if self.dtype == D.bfloat16:
            return self.astype(D.float32).asnumpy().tolist()
        return self.asnumpy().tolist()

    def __array__(self, dtype: Any = None) -> np.ndarray:
        arr = self.astype(D.float32).asnumpy() if self.dtype == D.bfloat16 else self.asnumpy()
        return arr if dtype is None else arr.astype(dtype, copy=False)

    def __array_wrap__(self, array: np.ndarray, context: Any = None, return_scalar: bool = False) -> "Tensor":
        """numpy's results on tensors come back as Tensors, as in torch (`np.sin(t)`, `t + ndarray`: see
        _ops/dunder.py); a bool result as uint8 (torch's workaround, 1.12 as 2.13: `np.isnan(t)` is a ByteTensor)."""
        if array.dtype == np.bool_:
            array = array.astype(np.uint8)
        D.from_numpy_dtype(array.dtype)  # torch.from_numpy's error for a dtype torch lacks
        return from_numpy_array(array)

    def __len__(self) -> int:
        shape = _MsTensor.shape.fget(self)
        if not shape:
            raise TypeError("len() of a 0-d tensor")
        return shape[0]

    def __iter__(self) -> Iterator["Tensor"]:
        shape = _MsTensor.shape.fget(self)
        if not shape:
            raise TypeError("iteration over a 0-d tensor")
        return iter(self.unbind(0))

    def __bool__(self) -> bool:
        n = self.numel()
        if n != 1:
            raise RuntimeError(
                f"Boolean value of Tensor with {'no values' if n == 0 else 'more than one value'} is ambiguous")
        return bool(self._item())

    def _python_scalar(self, ctype: str) -> Any:
        """The one value, for int()/float()/complex() (math.floor, math.sqrt... too): torch's ValueError for other
        sizes, its RuntimeError for a complex value with an imaginary part where a real one (`ctype`) is wanted."""
        if self.numel() != 1:
            raise ValueError("only one element tensors can be converted to Python scalars")
        v = self.item()
        if ctype and isinstance(v, complex):
            if v.imag:
                raise RuntimeError(f"value cannot be converted to type {ctype} without overflow")
            return v.real
        return v

    def __int__(self) -> int:
        return int(self._python_scalar("int64_t"))

    def __float__(self) -> float:
        return float(self._python_scalar("double"))

    def __complex__(self) -> complex:
        return complex(self._python_scalar(""))

    def __round__(self, ndigits: Any = None) -> Any:
        # torch.Tensor has no __round__ (round(t) is Python's TypeError; torch.round rounds): not MindSpore's
        raise TypeError(f"type {type(self).__name__} doesn't define __round__ method")

    def __contains__(self, element: Any) -> bool:
        """`x in t`: whether some element equals x (torch 1.12's: tensors and numbers only)."""
        if isinstance(element, (_MsTensor, Number)):
            return bool((element == self).any().item())
        raise RuntimeError(
            f"Tensor.__contains__ only supports Tensor or scalar, but you passed in a {type(element)}.")

    def __index__(self) -> int:
        if self.dtype not in D.all_int_type and self.dtype != D.bool or self.numel() != 1:
            raise TypeError("only integer tensors of a single element can be converted to an index")
        return int(self.item())

    def __hash__(self) -> int:
        return id(self)

    def __repr__(self) -> str:
        return tensor_repr(self)

    __str__ = __repr__

    def __format__(self, spec: str) -> str:
        if self.dim() == 0:
            return self.item().__format__(spec)
        return object.__format__(self, spec) if spec else repr(self)

    def __reduce_ex__(self, proto: int):
        # Plain pickling (multiprocessing, deepcopy fallbacks): rebuild from a numpy copy.
        arr = np.array(self.__array__())
        return (_rebuild_from_numpy, (arr, self.dtype, bool(getattr(self, "_requires_grad", False))))

    def __deepcopy__(self, memo: dict) -> "Tensor":
        """torch 1.12's: graph leaves only; the copy keeps requires_grad, a deep copy of `.grad` and the user's
        attributes (the `_mt_*` bookkeeping of this tensor - hooks, view bases, versions - is not the copy's)."""
        from copy import deepcopy  # (local: only this method of the module copies)

        if not self._is_leaf:
            raise RuntimeError("Only Tensors created explicitly by the user (graph leaves) support the deepcopy "
                               "protocol at the moment")
        if id(self) in memo:
            return memo[id(self)]
        new = _rebuild_from_numpy(np.array(self.__array__()), self.dtype, bool(self._requires_grad))
        memo[id(self)] = new  # before the attributes: one of them may refer back to this tensor
        if self._grad is not None:
            new.grad = deepcopy(self.grad, memo)
        for key, value in self.__dict__.items():
            if key == "_mt_zero_grad":  # a lazily zeroed .grad (optimizer.zero_grad()): zeros in the copy too
                new.__dict__[key] = value
            elif not key.startswith("_mt_"):
                new.__dict__[key] = deepcopy(value, memo)
        return new

    def __copy__(self) -> "Tensor":
        """copy.copy(t): another tensor object over t's storage (torch pickles t and rebuilds it over the same
        storage), outside the graph and keeping requires_grad - a non-leaf's copy is a leaf, as in torch. A subclass
        keeps its class and attributes (torch 1.12's `_rebuild_from_type`); the `_mt_*` bookkeeping stays t's."""
        out = self.detach()
        if self.requires_grad:
            out.requires_grad_()
        if type(self) is not Tensor:
            out.__class__ = type(self)
        for key, value in self.__dict__.items():
            if key == "_device" or (type(self) is not Tensor and not key.startswith("_mt_")):
                out.__dict__[key] = value
        return out


def _as_part(value: Any, like: Tensor) -> Any:
    """A value assigned to `x.real`/`x.imag`: a real tensor of the part's dtype, broadcast to x's shape."""
    part = D.float64 if like.dtype == D.complex128 else D.float32
    v = value.astype(part) if isinstance(value, _MsTensor) else _MsTensor(np.full(like.shape, value), dtype=part)
    return ms.ops.broadcast_to(v, tuple(like.shape)) if tuple(v.shape) != tuple(like.shape) else v


def _rebuild_from_numpy(arr: np.ndarray, dtype: Any, requires_grad: bool) -> Tensor:
    t = from_numpy_array(arr, dtype if dtype == D.bfloat16 else None)
    if requires_grad:
        t.requires_grad_()
    return t


_registry.Tensor = Tensor
_registry.TENSOR_TYPES.add(Tensor)
