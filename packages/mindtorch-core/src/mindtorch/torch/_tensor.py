"""class Tensor: a `mindspore.Tensor` subclass with torch's face.

Kept thin on purpose (tinygrad-style small core): construction, the properties torch users read, and the
Python protocols. Every math/shape/indexing method is attached from the op table (`_ops`) by
`_registry.install_methods`, so a method and its `torch.xxx` function are one implementation.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Iterator

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


class Size(tuple):
    """torch.Size: a tuple of ints that prints as torch.Size([...])."""

    def __new__(cls, seq: Any = ()) -> "Size":
        return tuple.__new__(cls, (int(s) for s in seq))

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
        return Size(out) if isinstance(item, slice) else out

    def __add__(self, other: Any) -> "Size":
        return Size(tuple.__add__(self, tuple(other)))

    def __reduce__(self):
        return (Size, (tuple(self),))


def _to_numpy_data(data: Any, dtype: Any) -> np.ndarray:
    """Python data (nested lists/tuples of numbers or tensors, numpy arrays) -> numpy array of `dtype`."""
    if isinstance(data, _MsTensor):
        arr = data.asnumpy()
    elif isinstance(data, np.ndarray):
        arr = data
    elif isinstance(data, (list, tuple)) and any(isinstance(x, _MsTensor) for x in data):
        arr = np.array([_to_numpy_data(x, None) for x in data])
    else:
        arr = np.asarray(data)
    if dtype is not None and dtype != D.bfloat16:
        arr = arr.astype(D.to_numpy_dtype(dtype), copy=False)
    return arr


def infer_dtype(data: Any) -> Any:
    """torch.tensor's dtype inference: floats -> default dtype, ints -> int64, bools -> bool."""
    if isinstance(data, _MsTensor):
        return data.dtype
    if isinstance(data, np.ndarray):
        return D.from_numpy_dtype(data.dtype)
    if isinstance(data, np.generic):
        return D.from_numpy_dtype(data.dtype)
    if isinstance(data, bool):
        return D.bool
    if isinstance(data, int):
        return D.int64
    if isinstance(data, float):
        return D.get_default_dtype()
    if isinstance(data, complex):
        return D.scalar_dtype(data)  # complex64, complex128 under a float64 default dtype (torch)
    if isinstance(data, (list, tuple, range)) or (isinstance(data, Sequence) and not isinstance(data, (str, bytes))):
        best = None  # (torch takes any Python sequence: range, deque, ...)
        for x in data:
            d = infer_dtype(x)
            best = d if best is None else D.promote_types(best, d)
        return best if best is not None else D.get_default_dtype()
    raise TypeError(f"Could not infer dtype of {type(data).__name__}")


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
            d = dtype or D.get_default_dtype()
            arr = _to_numpy_data(args[0], d)
            if d == D.bfloat16:
                _MsTensor.__init__(self, arr.astype(np.float32), dtype=d)
            else:
                _MsTensor.__init__(self, np.ascontiguousarray(arr))
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

    def __int__(self) -> int:
        return int(self.item())

    def __float__(self) -> float:
        return float(self.item())

    def __complex__(self) -> complex:
        return complex(self.item())

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
        return self


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
