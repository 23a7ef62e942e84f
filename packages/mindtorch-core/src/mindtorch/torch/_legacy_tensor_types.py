"""torch.FloatTensor, torch.LongTensor, ... : the legacy typed-tensor constructors.

`torch.LongTensor([1, 2])` builds an int64 tensor, `torch.FloatTensor(2, 3)` an uninitialised (here zero)
float32 2x3 tensor, and `isinstance(t, torch.FloatTensor)` checks the dtype, as in torch. They are not
subclasses: every tensor is a `torch.Tensor`.
"""
from __future__ import annotations

from typing import Any

from . import _dtype as D


class _TypedTensorMeta(type):
    def __instancecheck__(cls, obj: Any) -> bool:
        from ._tensor import Tensor

        return isinstance(obj, Tensor) and obj.dtype == cls._dtype and not getattr(obj, "is_sparse", False)

    def __call__(cls, *args: Any, **kwargs: Any) -> Any:
        from ._tensor import Tensor

        if "dtype" in kwargs:
            raise TypeError(f"{cls.__name__}() got an unexpected keyword argument 'dtype'")
        return Tensor(*args, dtype=cls._dtype, **kwargs)


def _make(name: str, dtype: Any) -> type:
    return _TypedTensorMeta(name, (), {"_dtype": dtype, "_torch_type_name": f"torch.{name}",
                                       "__module__": "torch", "dtype": dtype, "is_cuda": False})


# torch's legacy tensor type names (torch.FloatTensor, torch.sparse.FloatTensor, ...) and their dtypes
TYPE_DTYPES = {"FloatTensor": D.float32, "DoubleTensor": D.float64, "HalfTensor": D.float16,
               "BFloat16Tensor": D.bfloat16, "LongTensor": D.int64, "IntTensor": D.int32, "ShortTensor": D.int16,
               "CharTensor": D.int8, "ByteTensor": D.uint8, "BoolTensor": D.bool}
FloatTensor, DoubleTensor, HalfTensor, BFloat16Tensor, LongTensor, IntTensor, ShortTensor, CharTensor, ByteTensor, \
    BoolTensor = (_make(name, dtype) for name, dtype in TYPE_DTYPES.items())


def typename(obj: Any) -> str:
    """torch.typename: 'torch.FloatTensor' for a tensor, else the object's qualified name (its class's for an
    instance), e.g. 'torch.nn.modules.linear.Linear' in torch ('mindtorch.torch.nn...' here), 'int'."""
    from ._tensor import Tensor

    if isinstance(obj, Tensor):
        return obj.type()
    module = getattr(obj, "__module__", None)
    prefix = f"{module}." if module not in (None, "builtins") else ""
    name = getattr(obj, "__qualname__", None) or getattr(obj, "__name__", None) or type(obj).__name__
    return prefix + name
