"""torch.storage: the typed storage classes of torch 1.12 (`torch.FloatStorage`, `torch.LongStorage`, ...).

What code and old checkpoints use them for: construction from a size or a list (`torch.FloatStorage(3)`,
`torch.LongStorage([1, 2])`), `isinstance(s, torch.FloatStorage)`, `Tensor.storage_type()`, `len`/`size()`/
`tolist()`/indexing, and `torch.tensor(s)` / `torch.FloatTensor(s)`. A `TypedStorage` here is a 1-D buffer
of elements of one dtype (a mindtorch tensor); the legacy classes are not subclasses but check the dtype, as
torch's `_LegacyStorageMeta` does. `Tensor.storage()` stays MindSpore's untyped storage (sharing memory with the
tensor); a TypedStorage does not alias a tensor's memory.

Checkpoints name these classes in their pickles (`torch.FloatStorage`); `torch.load` maps those names itself
(serialization.py), so loading never needs these classes.
"""
from __future__ import annotations

from typing import Any, Iterator, List

from . import _dtype as D

__all__ = ["TypedStorage", "UntypedStorage"]


class TypedStorage:
    """A 1-D buffer of `size` elements of `dtype` (1.12's `torch._TypedStorage`)."""

    is_sparse = False

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

    # ----------------------------------------------------------------------------------------- queries
    def size(self) -> int:
        return int(self._data.numel())

    def __len__(self) -> int:
        return self.size()

    def nbytes(self) -> int:
        return self.size() * self.element_size()

    def element_size(self) -> int:
        return int(self._data.element_size())

    @property
    def device(self) -> Any:
        return self._data.device

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
        body = "\n".join(f" {v}" for v in self.tolist())
        head = f"[{self.type()} of size {self.size()}]"
        return f"{body}\n{head}" if body else head

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


_TypedStorage = TypedStorage  # torch 1.12's name


class _LegacyStorageMeta(type):
    """`isinstance(s, torch.FloatStorage)`: a TypedStorage of that dtype; `torch.FloatStorage(...)` builds one."""

    def __instancecheck__(cls, obj: Any) -> bool:
        return isinstance(obj, TypedStorage) and obj.dtype == cls.dtype

    def __call__(cls, *args: Any, **kwargs: Any) -> TypedStorage:
        if "dtype" in kwargs:
            raise TypeError(f"{cls.__name__}.__new__ got an unexpected keyword argument 'dtype'")
        return TypedStorage(*args, dtype=cls.dtype, **kwargs)


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
