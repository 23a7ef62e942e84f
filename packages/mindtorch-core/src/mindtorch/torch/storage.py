"""torch.storage: the typed storage classes of torch 1.12 (`torch.FloatStorage`, `torch.LongStorage`, ...).

What code and old checkpoints use them for: construction from a size or a list (`torch.FloatStorage(3)`,
`torch.LongStorage([1, 2])`), `isinstance(s, torch.FloatStorage)`, `Tensor.storage_type()`, `len`/`size()`/
`tolist()`/indexing, and `torch.tensor(s)` / `torch.FloatTensor(s)`. A `TypedStorage` here is a 1-D buffer
of elements of one dtype (a mindtorch tensor); the legacy classes are not subclasses but check the dtype, as
torch's `_LegacyStorageMeta` does.

`Tensor.storage()` is 1.12's: a TypedStorage of the tensor's dtype over the tensor's whole storage (a view's
storage is its base's), sharing its memory: `size()` counts elements, `data_ptr()` is the storage's start,
writes (`s[i] = v`) are seen by the tensor. `Tensor.untyped_storage()` stays MindSpore's byte storage. The
elements are reached lazily: size/data_ptr/nbytes need none. On GPU/Ascend a storage that extends past the
tensor's own elements (a view's) cannot be read, MindSpore exposing no raw device storage.

Checkpoints name these classes in their pickles (`torch.FloatStorage`); `torch.load` maps those names itself
(serialization.py), so loading never needs these classes. `torch.save` writes a TypedStorage as torch does and
`torch.load` gives one back.
"""
from __future__ import annotations

from typing import Any, Iterator, List, Optional

import mindspore as ms
import numpy as np

from . import _dtype as D
from . import _ms

__all__ = ["TypedStorage", "UntypedStorage"]


class TypedStorage:
    """A 1-D buffer of `size` elements of `dtype` (1.12's `torch._TypedStorage`)."""

    is_sparse = False
    _flat: Any = None  # the elements as a 1-D mindtorch tensor; built on first use for a tensor's storage
    _owner: Any = None  # Tensor.storage(): the tensor whose memory this is (keeps that memory alive)
    _ustorage: Any = None  # Tensor.storage(): MindSpore's untyped storage of that memory
    _legacy = False  # made by a legacy class (torch.FloatStorage(...)): 1.12 prints the class name then

    def __init__(self, *args: Any, dtype: Any = None, device: Any = None, wrap_storage: Any = None) -> None:
        from ._tensor import Tensor

        self.dtype = D.to_dtype(dtype) if dtype is not None else D.get_default_dtype()
        if wrap_storage is not None:
            raise NotImplementedError("TypedStorage(wrap_storage=...) is not supported by mindtorch: its typed "
                                      "storages do not alias MindSpore's untyped storage; build one from a list or "
                                      "a size, or use tensor.untyped_storage() directly")
        if not args:
            self._data = Tensor([], dtype=self.dtype)
        elif len(args) == 1 and isinstance(args[0], int) and not isinstance(args[0], bool):
            if args[0] < 0:
                raise RuntimeError(f"Storage size must be non-negative, but got {args[0]}")
            from ._ops._registry import FUNCTIONS

            self._data = FUNCTIONS["zeros"](args[0], dtype=self.dtype)  # torch leaves it uninitialised
        elif len(args) == 1:
            seq = args[0]
            if isinstance(seq, TypedStorage):
                seq = seq.tolist()
            self._data = Tensor(list(seq), dtype=self.dtype).reshape(-1)
        else:
            raise TypeError(f"{type(self).__name__}(): expected a size (int) or a sequence, got {len(args)} "
                            "arguments")

    @classmethod
    def _of_tensor(cls, t: Any) -> "TypedStorage":
        """`t.storage()`: the whole storage under `t`, typed as `t.dtype`, sharing its memory."""
        out = cls.__new__(cls)
        out.dtype = t.dtype
        out._owner = t
        out._ustorage = ms.Tensor.untyped_storage(t)
        return out

    @property
    def _data(self) -> Any:
        if self._flat is None:
            self._flat = self._materialize()
        return self._flat

    @_data.setter
    def _data(self, value: Any) -> None:
        self._flat = value

    def _materialize(self) -> Any:
        """A 1-D tensor over the owner's whole storage, aliasing it (writes reach the owner)."""
        from ._tensor import Tensor

        t = self._owner
        n = self.size()
        if n == 0:
            return Tensor([], dtype=self.dtype)
        if ms.Tensor.is_contiguous(t) and int(ms.Tensor.storage_offset(t)) == 0 and int(t.numel()) == n:
            flat = ms.Tensor.view(t.detach(), (n,))  # the tensor is its whole storage: a MindSpore view of it
            flat.__class__ = Tensor
            return flat
        if _ms.device_target() == "CPU" and self.dtype != D.bfloat16:
            # a view, or a layout that is not row-major: read the storage in host memory, from its start (numpy has
            # no bfloat16, and the raw bytes of any other dtype are its numpy dtype's)
            import ctypes

            from ._tensor import from_numpy_array

            raw = (ctypes.c_char * self._ustorage.nbytes()).from_address(self._ustorage.data_ptr())
            raw.owner = t  # the array's base keeps the tensor, so its memory, alive
            return from_numpy_array(np.frombuffer(raw, D.to_numpy_dtype(self.dtype)))
        raise NotImplementedError(f"Tensor.storage(): reading the elements of a storage that extends past the tensor "
                                  f"(a view's, or a {D.torch_name(self.dtype)} one) is not supported by mindtorch on "
                                  f"{_ms.device_target()}: MindSpore exposes no raw device storage; use the base "
                                  "tensor's storage or tensor.contiguous()")

    def _untyped_storage(self) -> Any:
        return self._ustorage if self._ustorage is not None else ms.Tensor.untyped_storage(self._data)

    # ----------------------------------------------------------------------------------------- queries
    def size(self) -> int:
        if self._flat is None and self._ustorage is not None:  # a tensor's storage: counted without reading it
            return int(self._ustorage.nbytes()) // self.element_size()
        return int(self._data.numel())

    def __len__(self) -> int:
        return self.size()

    def nbytes(self) -> int:
        return self.size() * self.element_size()

    def element_size(self) -> int:
        return int(D._ITEMSIZE[self.dtype])

    def data_ptr(self) -> int:
        """Address of the storage's first element (the same for every view of one storage, as in torch)."""
        return int(self._untyped_storage().data_ptr())

    def _untyped(self) -> Any:
        """1.12's `_TypedStorage._untyped()`: the byte storage underneath (MindSpore's UntypedStorage)."""
        return self._untyped_storage()

    untyped = _untyped  # the name torch >= 1.13 gives it

    @property
    def device(self) -> Any:
        return self._owner.device if self._owner is not None else self._data.device

    @property
    def is_cuda(self) -> bool:
        return False

    def is_shared(self) -> bool:
        return False

    def type(self) -> str:
        return legacy_class(self.dtype)._torch_type_name

    def tolist(self) -> List[Any]:
        return self._data.tolist()

    def __iter__(self) -> Iterator[Any]:
        return iter(self.tolist())

    def __getitem__(self, idx: Any) -> Any:
        if isinstance(idx, slice):
            out = TypedStorage(dtype=self.dtype)
            out._data = self._data[idx]
            return out
        return self._data[idx].item()

    def __setitem__(self, idx: Any, value: Any) -> None:
        self._data[idx] = value

    def fill_(self, value: Any) -> "TypedStorage":
        self._data.fill_(value)
        return self

    def copy_(self, source: "TypedStorage") -> "TypedStorage":
        self._data.copy_(source._data)
        return self

    def clone(self) -> "TypedStorage":
        out = TypedStorage(dtype=self.dtype)
        out._data = self._data.clone()
        return out

    def __array__(self, dtype: Any = None) -> Any:
        arr = self._data.numpy()
        return arr.astype(dtype) if dtype is not None else arr

    def __repr__(self) -> str:
        # 1.12's _TypedStorage.__str__: legacy-class storages print the class, others the dtype and device
        body = " " + "\n ".join(str(v) for v in self.tolist())
        if self._legacy:
            return f"{body}\n[{self.type()} of size {self.size()}]"
        info = f"torch.storage._TypedStorage(dtype={D.torch_name(self.dtype)}, device={self.device})"
        return f"{body}\n[{info} of size {self.size()}]"

    def __reduce__(self) -> Any:
        """Pickling (copy.deepcopy, multiprocessing) goes through torch.save's bytes, as 1.12's does: a copy."""
        import io

        from .serialization import save

        buf = io.BytesIO()
        save(self, buf, _use_new_zipfile_serialization=False)
        return (_load_from_bytes, (buf.getvalue(),))

    def __eq__(self, other: Any) -> bool:
        return self is other

    __hash__ = object.__hash__

    # dtype conversions, as torch's storages have them
    def _to(self, dtype: Any) -> "TypedStorage":
        out = TypedStorage(dtype=dtype)
        out._data = self._data.to(dtype)
        return out

    def float(self) -> "TypedStorage":
        return self._to(D.float32)

    def double(self) -> "TypedStorage":
        return self._to(D.float64)

    def half(self) -> "TypedStorage":
        return self._to(D.float16)

    def long(self) -> "TypedStorage":
        return self._to(D.int64)

    def int(self) -> "TypedStorage":
        return self._to(D.int32)

    def bool(self) -> "TypedStorage":
        return self._to(D.bool)

    def byte(self) -> "TypedStorage":
        return self._to(D.uint8)

    def cpu(self) -> "TypedStorage":
        return self

    def cuda(self, device: Optional[Any] = None, non_blocking: bool = False, **kwargs: Any) -> "TypedStorage":
        """Accepted: one process runs on one MindSpore device, where the data already is (as Tensor.cuda())."""
        return self


_TypedStorage = TypedStorage  # torch 1.12's name


def _load_from_bytes(b: bytes) -> Any:
    import io

    from .serialization import load

    return load(io.BytesIO(b))


class _LegacyStorageMeta(type):
    """`isinstance(s, torch.FloatStorage)`: a TypedStorage of that dtype; `torch.FloatStorage(...)` builds one."""

    def __instancecheck__(cls, obj: Any) -> bool:
        return isinstance(obj, TypedStorage) and obj.dtype == cls.dtype

    def __call__(cls, *args: Any, **kwargs: Any) -> TypedStorage:
        if "dtype" in kwargs:
            raise TypeError(f"{cls.__name__}.__new__ got an unexpected keyword argument 'dtype'")
        out = TypedStorage(*args, dtype=cls.dtype, **kwargs)
        out._legacy = True
        return out


def _legacy(name: str, dtype: Any) -> type:
    return _LegacyStorageMeta(name, (), {"dtype": dtype, "_torch_type_name": f"torch.{name}",
                                         "__module__": "torch"})


FloatStorage = _legacy("FloatStorage", D.float32)
DoubleStorage = _legacy("DoubleStorage", D.float64)
HalfStorage = _legacy("HalfStorage", D.float16)
BFloat16Storage = _legacy("BFloat16Storage", D.bfloat16)
LongStorage = _legacy("LongStorage", D.int64)
IntStorage = _legacy("IntStorage", D.int32)
ShortStorage = _legacy("ShortStorage", D.int16)
CharStorage = _legacy("CharStorage", D.int8)
ByteStorage = _legacy("ByteStorage", D.uint8)
BoolStorage = _legacy("BoolStorage", D.bool)
ComplexFloatStorage = _legacy("ComplexFloatStorage", D.complex64)
ComplexDoubleStorage = _legacy("ComplexDoubleStorage", D.complex128)
UntypedStorage = _legacy("UntypedStorage", D.uint8)  # 1.12's _UntypedStorage holds bytes

LEGACY_CLASSES = (FloatStorage, DoubleStorage, HalfStorage, BFloat16Storage, LongStorage, IntStorage,
                  ShortStorage, CharStorage, ByteStorage, BoolStorage, ComplexFloatStorage, ComplexDoubleStorage)


_CLASS_OF = {cls.dtype: cls for cls in LEGACY_CLASSES}


def legacy_class(dtype: Any) -> type:
    """The legacy storage class of `dtype` (what `Tensor.storage_type()` returns)."""
    cls = _CLASS_OF.get(dtype)
    if cls is None:
        raise RuntimeError(f"no storage class for dtype {D.torch_name(dtype)}")
    return cls


def _quantized(name: str) -> type:
    def new(cls: type, *args: Any, **kwargs: Any) -> Any:
        raise NotImplementedError(f"torch.{name}: quantized storages are not supported by mindtorch (MindSpore "
                                  "has no quantized tensor type); dequantize the data into a float storage")
    return type(name, (), {"__new__": new, "__module__": "torch"})


QUInt8Storage = _quantized("QUInt8Storage")
QInt8Storage = _quantized("QInt8Storage")
QInt32Storage = _quantized("QInt32Storage")
QUInt4x2Storage = _quantized("QUInt4x2Storage")
QUInt2x4Storage = _quantized("QUInt2x4Storage")


def _tensor_storage(self: Any) -> TypedStorage:
    """Tensor.storage() (torch 1.12): a TypedStorage of the tensor's dtype over its whole storage, sharing memory.
    (Set here rather than in the op table: it is an accessor of memory, not an op.)"""
    return TypedStorage._of_tensor(self)


def _install_tensor_storage() -> None:
    from ._tensor import Tensor

    Tensor.storage = _tensor_storage  # type: ignore[method-assign]


_install_tensor_storage()
