"""torch.nn.Parameter: a MindSpore `Parameter` that is also a mindtorch `Tensor`.

`isinstance(p, torch.Tensor)` and `isinstance(p, mindspore.Parameter)` are both true, so MindSpore's own
machinery (`Cell.trainable_params()`, `ms.value_and_grad(fn, None, params)`, optimizers, `auto_mixed_precision`)
accepts our parameters unchanged.

How it is built (measured on MindSpore 2.10): `ms.Parameter` does not subclass `ms.Tensor`; both derive from the
C++ `TensorPy`. `ms.Parameter.__new__` would build a combined class for a Tensor subclass
(`_get_combined_class`), but that path calls `Parameter.__init__` before the C++ tensor exists and fails
("The pointer[stub_] is null") for a subclass without its own `__new__`. So this class is the combined class
itself, `Parameter(mindtorch.Tensor, ms.Parameter)`, and builds the C++ tensor first (`ms.Tensor.__init__`,
which shares memory with the source tensor, as torch's `Parameter(t)` does), then runs `ms.Parameter.__init__`
for the parameter metadata (name, `param_info`, requires_grad).

MRO: Parameter -> torch.Tensor -> (autograd mixin) -> ms.Tensor -> ms.Parameter -> TensorPy. The few names both
ms.Tensor and ms.Parameter define and MindSpore relies on for parameters are re-pointed to ms.Parameter below.
"""
from __future__ import annotations

from typing import Any, Optional

import mindspore as ms
import numpy as np
from mindspore import ops as _msops

from .. import _dtype as D
from .. import _ms
from .._tensor import Tensor, from_numpy_array
from .._tensor_str import tensor_repr
from ..autograd._tensor_mixin import own_leaf_grad
from ..autograd.function import mark_stale_grad_shape

_MsTensor = ms.Tensor
_MsParameter = ms.Parameter
_TensorPy = _ms.TensorPy  # the C++ base class of both ms.Tensor and ms.Parameter

__all__ = ["Parameter", "UninitializedParameter", "UninitializedBuffer", "is_lazy", "is_parameter_name_generated",
           "replace_data"]


def is_parameter_name_generated(name: Optional[str]) -> bool:
    """True for MindSpore's automatic names ('Parameter#3'), i.e. a name no module has given yet."""
    return name is None or name.startswith("Parameter#") or name.startswith("Parameter$")


def _as_ms_tensor(data: Any) -> _MsTensor:
    if isinstance(data, _MsTensor):
        return data
    if isinstance(data, _TensorPy):  # an ms.Parameter built by MindSpore itself
        return _MsTensor(data)
    if isinstance(data, np.ndarray):
        return from_numpy_array(data)
    raise TypeError(f"Parameter(): expected a Tensor as data, but got {type(data).__name__}")


def replace_data(dst: Any, value: Any) -> None:
    """Make `dst` hold `value`'s data, shape and dtype in place (the object is kept): torch's `t.data = value`.
    Calls the C++ method directly, skipping ms.Tensor.assign_value's Python-level probes of `value`."""
    if value is dst:
        return  # `p.data = p`: nothing to change (the refresh below would read the target dtype off dst itself)
    # (the C++ shape getter returns a list: compared as a tuple, else every assignment took the refresh path)
    if isinstance(dst, _MsParameter) and (dst.dtype != value.dtype or
                                          tuple(_TensorPy.shape.__get__(dst)) != tuple(value.shape)):
        # MindSpore 2.10 keeps the dtype/shape a Parameter had when a primitive (BiasAdd, Conv2D, ...) last
        # inferred on it, and assign_value_cpp does not refresh it: after `linear.double()` the next F.linear
        # failed with "BiasAdd: input type must be same ... Ref[Tensor[Float32]]". set_dtype to another dtype
        # does refresh it (measured); it converts the old data, which is overwritten just after.
        _TensorPy.set_dtype(dst, value.dtype if dst.dtype != value.dtype else
                            (ms.float16 if dst.dtype == ms.float32 else ms.float32))
        if dst.dtype != value.dtype:
            _TensorPy.set_dtype(dst, value.dtype)
        if dst._requires_grad:  # its gradient shape in MindSpore stays the old one (see autograd.function)
            mark_stale_grad_shape(dst)
    _TensorPy.assign_value_cpp(dst, value)


class Parameter(Tensor, _MsParameter):
    """A Tensor that is a module parameter (torch.nn.Parameter).

    Args:
        data (Tensor): parameter tensor; memory is shared with it (as in torch). ``None`` gives an empty tensor.
        requires_grad (bool): whether the parameter requires gradient (and is returned by MindSpore's
            ``Cell.trainable_params()``). Default: ``True``.

    The MindSpore name (``p.name``) is set from the attribute path when a module registers the parameter
    (``conv1.weight``): MindSpore optimizers and ``value_and_grad`` need unique names inside a network.
    """

    def __new__(cls, data: Any = None, requires_grad: bool = True, name: Optional[str] = None) -> "Parameter":
        if data is None:
            data = from_numpy_array(np.zeros((0,), dtype=np.float32))
        src = _as_ms_tensor(data)
        obj = _TensorPy.__new__(cls)
        _MsTensor.__init__(obj, src)  # shares memory with `src` (zero-copy)
        # what ms.Parameter.__new__ records (read by Cell.init_parameters_data when compiling a graph)
        obj.init_mode = None
        obj.is_default_input_init = False
        return obj

    def __init__(self, data: Any = None, requires_grad: bool = True, name: Optional[str] = None) -> None:
        if requires_grad and not (self.dtype in D.all_float_type or self.dtype in D.all_complex_type):
            raise RuntimeError("Only Tensors of floating point and complex dtype can require gradients")
        # ms.Parameter.__init__ only records metadata: with a Tensor it re-initialises the C++ object with the
        # same dtype/shape, which keeps the data set in __new__ (checked on MindSpore 2.10).
        _MsParameter.__init__(self, self, name=name, requires_grad=bool(requires_grad))
        if requires_grad:
            own_leaf_grad(self)
        if data is not None and isinstance(data, Tensor):
            dev = data.__dict__.get("_device")
            if dev is not None:
                self._device = dev

    # ------------------------------------------------------------------------------------- autograd face
    @property
    def requires_grad(self) -> bool:  # type: ignore[override]
        return self.param_info.requires_grad

    @requires_grad.setter
    def requires_grad(self, value: bool) -> None:
        # ms.Parameter's setter updates both `param_info` (trainable_params()) and the tape flag.
        _MsParameter.requires_grad.fset(self, bool(value))
        if value:
            own_leaf_grad(self)

    def requires_grad_(self, requires_grad: bool = True) -> "Parameter":
        self.requires_grad = requires_grad
        return self

    @property
    def data(self) -> Tensor:
        """A plain Tensor sharing memory with this parameter, outside autograd."""
        out = _msops.stop_gradient(self)  # shares memory, requires_grad=False (measured)
        out.__class__ = Tensor
        return out

    @data.setter
    def data(self, value: Any) -> None:
        # torch semantics: `p.data = t` replaces the content, shape and dtype while keeping the object
        # (optimizers hold references to it). TensorPy.assign_value does exactly that, in place.
        if not isinstance(value, _TensorPy):
            raise TypeError(f"data must be a Tensor, got {type(value).__name__}")
        replace_data(self, value)

    @property
    def is_leaf(self) -> bool:
        return True

    def __repr__(self) -> str:
        return "Parameter containing:\n" + tensor_repr(self)

    __str__ = __repr__

    def __hash__(self) -> int:
        return id(self)

    # -------------------------------------------------------------------------------- copy / pickle
    def __deepcopy__(self, memo: dict) -> "Parameter":
        if id(self) in memo:
            return memo[id(self)]
        arr = np.array(self.__array__())
        new = Parameter(from_numpy_array(arr, self.dtype if self.dtype == D.bfloat16 else None),
                        requires_grad=self.requires_grad, name=self.name)
        memo[id(self)] = new
        return new

    def __copy__(self) -> "Parameter":
        # A new Parameter over a copy of the data (torch's copy.copy goes through pickling; MindSpore's
        # Parameter.clone relies on copy(self) returning a distinct object).
        return _rebuild_parameter(np.array(self.__array__()), self.dtype, self.requires_grad)

    def __reduce_ex__(self, proto: int):
        arr = np.array(self.__array__())
        return (_rebuild_parameter, (arr, self.dtype, self.requires_grad))

    def clone(self, *args: Any, **kwargs: Any) -> Any:  # type: ignore[override]
        """torch's `clone(memory_format=...)` -> Tensor; MindSpore's `clone(init)` (what its optimizers call
        on parameters to create moments) -> Parameter."""
        if "init" in kwargs or (args and not _is_memory_format(args[0])):
            return _MsParameter.clone(self, *args, **kwargs)
        return Tensor.clone(self, *args, **kwargs)

    # ms.Tensor also defines these; MindSpore calls them on parameters expecting ms.Parameter's versions.
    init_data = _MsParameter.init_data
    value = _MsParameter.value
    _offload = _MsParameter._offload
    _remove_hook = _MsParameter._remove_hook
    copy = _MsParameter.copy


def _is_memory_format(x: Any) -> bool:
    return x is None or type(x).__name__ == "memory_format" or str(x).startswith("torch.")


def _rebuild_parameter(arr: np.ndarray, dtype: Any, requires_grad: bool) -> Parameter:
    return Parameter(from_numpy_array(arr, dtype if dtype == D.bfloat16 else None), requires_grad=requires_grad)


# ----------------------------------------------------------------------------------- lazy modules' placeholders
class UninitializedTensorMixin:
    """A parameter or buffer whose shape is not known yet (lazy modules): a 0-element placeholder that keeps its
    dtype (`module.double()` before the first call applies) until `materialize(shape)` gives it data in place and
    turns it into `cls_to_become`; the object stays the same, so an optimizer built before the first forward
    holds the materialized parameter. (torch's placeholder also refuses most ops and `.shape`; this one has shape
    (0,), which MindSpore's own parameter code reads, so an op on it fails on that shape instead.)"""

    cls_to_become: type

    def materialize(self, shape: Any, device: Any = None, dtype: Any = None) -> None:
        """Give the placeholder uninitialised storage of `shape` (and `dtype`, default its own) in place."""
        from .._ops import _registry

        shape = (shape,) if isinstance(shape, int) else tuple(shape)
        requires_grad = self.requires_grad
        replace_data(self, _zeros(shape, D.to_dtype(dtype) if dtype is not None else self.dtype))
        self.__dict__.pop("_mt_lazy_requires_grad", None)
        self.__class__ = self.cls_to_become
        if requires_grad and not self._requires_grad:  # (a parameter's deferred flag, see UninitializedParameter)
            self.requires_grad_(True)
        _registry.bump_version(self)

    def share_memory_(self) -> Any:
        raise RuntimeError(
            "Can't call share_memory_() on an uninitialized parameter or buffer. Call `forward` to initialize "
            "the parameters before calling `module.share_memory()`.")

    def __repr__(self) -> str:
        return f"<{type(self).__name__}>"

    __str__ = __repr__

    def __reduce_ex__(self, proto: int):
        return (type(self), (self.requires_grad,))


def is_lazy(param: Any) -> bool:
    """Whether `param` is a lazy module's not yet materialized parameter or buffer."""
    return isinstance(param, UninitializedTensorMixin)


def _zeros(shape: tuple, dtype: Any) -> Tensor:
    if dtype == D.bfloat16:  # (no numpy bfloat16)
        return from_numpy_array(np.zeros(shape, np.float32), dtype)
    return from_numpy_array(np.zeros(shape, D.to_numpy_dtype(dtype)))


def _placeholder(dtype: Any) -> Tensor:
    return _zeros((0,), D.to_dtype(dtype) if dtype is not None else D.get_default_dtype())


class UninitializedParameter(UninitializedTensorMixin, Parameter):
    """A lazy module's parameter before its first forward (torch.nn.parameter.UninitializedParameter)."""

    cls_to_become = Parameter

    def __new__(cls, requires_grad: bool = True, device: Any = None, dtype: Any = None) -> "UninitializedParameter":
        return Parameter.__new__(cls, _placeholder(dtype), False)

    def __init__(self, requires_grad: bool = True, device: Any = None, dtype: Any = None) -> None:
        # MindSpore fixes a Parameter's gradient shape when it first requires grad (measured on 2.10: a parameter
        # that required grad at shape (0,) and then got (3, 4) data failed a custom-function backward with "grad
        # tensor should be broadcast to expected shape ... {0}"): the flag is held here until `materialize`.
        Parameter.__init__(self, self, False)
        self.__dict__["_mt_lazy_requires_grad"] = bool(requires_grad)

    @property
    def requires_grad(self) -> bool:  # type: ignore[override]
        return self.__dict__.get("_mt_lazy_requires_grad", True)

    @requires_grad.setter
    def requires_grad(self, value: bool) -> None:
        self.__dict__["_mt_lazy_requires_grad"] = bool(value)

    def requires_grad_(self, requires_grad: bool = True) -> "UninitializedParameter":
        self.requires_grad = requires_grad
        return self

    def __deepcopy__(self, memo: dict) -> "UninitializedParameter":
        if id(self) not in memo:
            memo[id(self)] = type(self)(self.requires_grad, None, self.dtype)
        return memo[id(self)]


class UninitializedBuffer(UninitializedTensorMixin, Tensor):
    """A lazy module's buffer before its first forward (torch.nn.parameter.UninitializedBuffer)."""

    cls_to_become = Tensor

    def __new__(cls, *args: Any, **kwargs: Any) -> "UninitializedBuffer":
        return _TensorPy.__new__(cls)

    def __init__(self, requires_grad: bool = False, device: Any = None, dtype: Any = None) -> None:
        Tensor.__init__(self, _placeholder(dtype))
        if requires_grad:
            self.requires_grad_(True)

    def __deepcopy__(self, memo: dict) -> "UninitializedBuffer":
        if id(self) not in memo:
            memo[id(self)] = type(self)(self.requires_grad, None, self.dtype)
        return memo[id(self)]
