"""Tensor's autograd members (backward, grad, requires_grad, is_leaf, grad_fn, detach, register_hook, ...).

A mixin base of `mindtorch.torch.Tensor`, kept apart from `_tensor.py` so that autograd lives in one place.
Everything here reads or drives MindSpore's own C++ tape (the `TensorPy` members `_grad`, `_grad_node`,
`_is_leaf`, `_requires_grad`, `register_hook`), so gradients computed by `loss.backward()` and by
`mindspore.value_and_grad` come from the same engine.
"""
from __future__ import annotations

import warnings
import weakref
from typing import Any, Callable, Optional

import mindspore as ms
import numpy as np
from mindspore import ops

from .. import _ms
from .graph import grad_fn_of

_MsTensor = ms.Tensor
_NON_LEAF_GRAD_WARNING = (
    "The .grad attribute of a Tensor that is not a leaf Tensor is being accessed. Its .grad attribute won't be "
    "populated during autograd.backward(). If you indeed want the .grad field to be populated for a non-leaf "
    "Tensor, use .retain_grad() on the non-leaf Tensor. If you access the non-leaf Tensor by mistake, make sure "
    "you access the leaf Tensor instead.")


def _own_grad(grad: Any) -> Any:
    """The gradient a leaf's accumulator receives: a contiguous tensor of its own (see `own_leaf_grad`)."""
    return grad.contiguous() if not grad.is_contiguous() else ops.add(grad, 0)


def own_leaf_grad(t: Any) -> None:
    """Hand every gradient that reaches leaf `t` to its accumulator as a fresh contiguous tensor (a hook,
    installed once per leaf that requires grad). Works around two MindSpore 2.10 bugs measured on CPU:

    - a gradient that the engine also routes elsewhere (`x * w + b` with `b` a leaf: add's backward hands the
      same tensor to b and to the mul) is cloned before accumulation with the Clone kernel, which CPU lacks:
      `loss.backward()` failed with "The kernel Clone unregistered" (position embeddings, `a + b` of leaves);
    - when a leaf already holds a `.grad`, accumulating a non-contiguous view (the gradient through
      `transpose(w)`) adds the buffers element by element ignoring strides, silently permuting the gradient.

    Costs one copy kernel per leaf per backward (what torch's AccumulateGrad does for a shared gradient)."""
    d = t.__dict__
    if "_mt_own_grad_hook" not in d:
        d["_mt_own_grad_hook"] = _MsTensor.register_hook(t, _own_grad)


def _host_zeros_like(t: Any) -> Any:
    """A fresh zero tensor like `t`, built on the host: numpy's zeroed allocation wrapped zero-copy costs ~40 us
    where a ZerosLike kernel costs ~300 us for a 784x256 float32 gradient on CPU (issue 8). bfloat16 and
    other dtypes numpy lacks use the kernel."""
    try:
        np_dtype = ms.dtype_to_nptype(t.dtype)
    except (KeyError, TypeError):
        np_dtype = None
    if np_dtype is None or t.dtype == ms.bfloat16:
        return ms.ops.zeros_like(t)
    return ms.from_numpy(np.zeros(tuple(_MsTensor.shape.fget(t)), np_dtype))


def zero_grad_lazily(t: Any) -> None:
    """torch 1.12's `zero_grad(set_to_none=False)` for leaf `t`, without a kernel: the stored gradient is dropped
    and `t` is marked as holding zeros. Reading `t.grad` materialises the zeros (`leaf_grad` for optimizers);
    the next backward stores its gradient instead of adding it to a zero tensor (one add kernel per parameter
    per step saved)."""
    if t._grad is not None:
        t._grad = None
        t.__dict__["_mt_zero_grad"] = True


def leaf_grad(t: Any) -> Any:
    """The gradient an optimizer applies to leaf `t` (the raw MindSpore tensor, zeros after a lazy zero_grad)."""
    g = t._grad
    if g is None and t.__dict__.get("_mt_zero_grad"):
        g = t._grad = _host_zeros_like(t)
        del t.__dict__["_mt_zero_grad"]
    return g


# The number of the user-level backward()/autograd.grad() call running. One such call can run MindSpore's engine
# several times (one input at a time, see autograd.grad), each firing the tensor hooks on its path: a retained
# gradient is stored once per call, as torch's single pass does.
BACKWARD_PASS = [0]


def _as_torch(t: Any) -> Any:
    """Re-class a plain MindSpore tensor as ours (zero-copy)."""
    if type(t) is _MsTensor:
        from .._tensor import Tensor

        t.__class__ = Tensor
    return t


class RemovableHandle:
    """What `register_hook` returns: `.remove()` unregisters the hook (idempotent)."""

    def __init__(self, remove: Callable[[], None]) -> None:
        self._remove = remove

    def remove(self) -> None:
        if self._remove is not None:
            self._remove()
            self._remove = None

    def __enter__(self) -> "RemovableHandle":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.remove()


class TensorAutogradMixin:
    """torch.Tensor's autograd API on MindSpore's tape."""

    __slots__ = ()

    # ------------------------------------------------------------------------------------------ backward
    def backward(self, gradient: Any = None, retain_graph: Optional[bool] = None, create_graph: bool = False,
                 inputs: Any = None) -> None:
        """Accumulate d(self)/d(leaf) into every leaf's `.grad` (`gradient` required unless self has 1 element)."""
        from . import backward as _backward

        _backward(self, gradient, retain_graph, create_graph, inputs=inputs)

    # ---------------------------------------------------------------------------------------------- grad
    @property
    def grad(self) -> Any:
        """The accumulated gradient (leaves, or non-leaves after `retain_grad()`), else None."""
        if self._is_leaf:
            g = leaf_grad(self)
            return None if g is None else _as_torch(g)
        d = self.__dict__
        if d.get("_mt_retains_grad") or "_mt_retained_grad" in d:  # retain_grad(), or backward(inputs=[self])
            return d.get("_mt_retained_grad")
        if self._requires_grad:
            warnings.warn(_NON_LEAF_GRAD_WARNING, UserWarning, stacklevel=2)
        return None

    @grad.setter
    def grad(self, value: Any) -> None:
        if value is not None:
            if not isinstance(value, _MsTensor):
                raise TypeError(f"assigned grad expected to be a Tensor or None but got grad of type "
                                f"{type(value).__name__}")
            if value.dtype != self.dtype:
                raise RuntimeError("assigned grad has data of a different type")
            if tuple(value.shape) != tuple(_MsTensor.shape.fget(self)):
                raise RuntimeError("assigned grad has data of a different size")
        if self._is_leaf:
            self._grad = value
            self.__dict__.pop("_mt_zero_grad", None)
        else:
            self.__dict__["_mt_retained_grad"] = value

    @grad.deleter
    def grad(self) -> None:
        self.grad = None

    # ------------------------------------------------------------------------------------- requires_grad
    @property
    def requires_grad(self) -> bool:
        return bool(self._requires_grad)

    @requires_grad.setter
    def requires_grad(self, value: bool) -> None:
        self.requires_grad_(value)

    def requires_grad_(self, requires_grad: bool = True) -> Any:
        """Make this leaf (not) require grad; returns self. Starts tape recording (see DESIGN.md §3)."""
        requires_grad = bool(requires_grad)
        if not self._is_leaf:
            if not requires_grad:
                raise RuntimeError(
                    "you can only change requires_grad flags of leaf variables. If you want to use a computed "
                    "variable in a subgraph that doesn't require differentiation use var_no_grad = var.detach().")
            return self
        if requires_grad:
            from .. import _dtype as D

            if self.dtype not in D.all_float_type and self.dtype not in D.all_complex_type:
                raise RuntimeError("only Tensors of floating point and complex dtype can require gradients")
            # `mindspore.value_and_grad` switches recording off when it finishes; a tensor asking for grad is
            # the moment to switch it back on.
            _ms.enable_grad_recording()
        _MsTensor.requires_grad_(self, requires_grad)
        if requires_grad:
            own_leaf_grad(self)
        return self

    @property
    def _base(self) -> Any:
        """The tensor this one is a view of, where mindtorch knows it: views of tensors that take part in autograd
        (the view ops remember their base then, see `_registry.VIEW_OPS`); None otherwise, and for non-views.
        (torch knows it for every view; tracking it on every view op would cost each one a weak reference.)"""
        ref = self.__dict__.get("_mt_view_base")
        return None if ref is None else ref()

    @property
    def is_leaf(self) -> bool:
        return bool(self._is_leaf)

    @property
    def grad_fn(self) -> Any:
        """The node that created this tensor (`<MulBackward>`-like, MindSpore's op name), None for leaves."""
        if self._is_leaf:
            return None
        return grad_fn_of(self)

    # ------------------------------------------------------------------------------------------- detach
    def detach(self) -> Any:
        """A tensor sharing storage with self, outside the graph (requires_grad=False).

        As in torch it shares self's version counter: an in-place write through it (`h.detach().zero_()`) makes a
        backward that saved `h` raise "modified by an inplace operation" instead of silently using the new values
        (the in-place write-back bumps the source's MindSpore counter, see `_ops._registry.bump_version`).
        """
        out = _as_torch(ops.stop_gradient(self))
        if self._requires_grad:
            out.__dict__["_mt_version_source"] = weakref.ref(self)
        return out

    def detach_(self) -> Any:
        """Detach self from the graph in place (becomes a leaf that does not require grad)."""
        if "_mt_view_base" in self.__dict__:  # recorded by the view ops while autograd records (torch refuses)
            raise RuntimeError("Can't detach views in-place. Use detach() instead.")
        if self._is_leaf:
            if self._requires_grad:
                _MsTensor.requires_grad_(self, False)
            return self
        # assign_value re-points self at a tensor without autograd history over the same storage.
        self.assign_value(ops.stop_gradient(self))
        return self

    @property
    def data(self) -> Any:
        """A detached alias of this tensor (shares storage, but not the version counter, as in torch: writes through
        `.data` are invisible to autograd's checks); assigning replaces this tensor's data."""
        return _as_torch(ops.stop_gradient(self))

    @data.setter
    def data(self, value: Any) -> None:
        if not isinstance(value, _MsTensor):
            raise TypeError(f"data must be a Tensor, got {type(value).__name__}")
        requires_grad = bool(self._requires_grad)
        # Measured on MindSpore 2.10: assign_value refuses ("Can not modify tensor id of input tensor from network")
        # on a leaf that requires grad and has not yet been run through a StopGradient (so `p.data = w` on a fresh
        # parameter failed); one StopGradient of self first clears that state.
        ops.stop_gradient(self)
        self.assign_value(ops.stop_gradient(value))
        if requires_grad and not self._requires_grad:  # assign_value drops the autograd meta; torch keeps the flag
            _MsTensor.requires_grad_(self, True)

    # ---------------------------------------------------------------------------------------- retain_grad
    def retain_grad(self) -> None:
        """Keep the gradient of this non-leaf in `.grad` after backward (no-op on leaves).

        MindSpore's own `_retain_grad` needs a Clone kernel that CPU lacks, so a tensor hook stores the grad.
        """
        if self._is_leaf:
            return
        if not self._requires_grad:
            raise RuntimeError("can't retain_grad on Tensor that has requires_grad=False")
        d = self.__dict__
        if d.get("_mt_retains_grad"):
            return
        d["_mt_retains_grad"] = True

        def store(grad: Any) -> Any:
            if d.get("_mt_retained_pass") == BACKWARD_PASS[0]:
                return grad  # this call's engine passed here before (autograd.grad's one-input-at-a-time runs)
            d["_mt_retained_pass"] = BACKWARD_PASS[0]
            prev = d.get("_mt_retained_grad")
            g = _as_torch(grad)
            d["_mt_retained_grad"] = g if prev is None else _as_torch(prev + g)
            return grad

        _MsTensor.register_hook(self, store)

    @property
    def retains_grad(self) -> bool:
        return bool(self.__dict__.get("_mt_retains_grad", False))

    # ---------------------------------------------------------------------------------------------- hooks
    def register_hook(self, hook: Callable[[Any], Any]) -> RemovableHandle:
        """`hook(grad) -> Tensor or None` runs when the gradient of self is computed; a returned tensor
        replaces the gradient. Returns a handle with `.remove()`."""
        if not self._requires_grad:
            raise RuntimeError("cannot register a hook on a tensor that doesn't require gradient")

        def wrapped(grad: Any) -> Any:
            out = hook(_as_torch(grad))
            if out is None:
                return grad
            if tuple(_MsTensor.shape.fget(out)) != tuple(_MsTensor.shape.fget(grad)):  # torch checks, MindSpore not
                raise RuntimeError(f"hook '{getattr(hook, '__name__', type(hook).__name__)}' has changed the size of "
                                   "value")
            return out

        handle = _MsTensor.register_hook(self, wrapped)
        return RemovableHandle(handle.remove)

    # --------------------------------------------------------------------------------------------- version
    @property
    def _version(self) -> int:
        """torch's version counter: MindSpore's own counter (bumped by its in-place kernels and by our write
        back) — falls back to our Python counter where MindSpore's is not readable."""
        try:
            return int(_ms_version(self))
        except (AttributeError, TypeError):
            return int(self.__dict__.get("_mt_version", 0))


def _ms_version(t: Any) -> int:
    return _MsTensor.__mro__[1]._version.__get__(t)
