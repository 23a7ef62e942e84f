"""torch._foreach_* (torch 1.12's multi-tensor ops, which EMA helpers and multi-tensor optimizer code call on
parameter lists): the table's own kernel mapped over the list - MindSpore has no fused multi-tensor kernel, so one
op per tensor is what a fused kernel would cost here anyway. The in-place forms write each result back with
`write_back`, like every in-place op of the table, and return None as torch's do."""
from __future__ import annotations

from typing import Any, Callable, List, Optional, Sequence, Tuple

from ._registry import kernel, register, write_back


def _per_tensor(other: Any, n: int) -> Sequence[Any]:
    """A scalar (the same for every tensor) or a list with one entry per tensor."""
    if isinstance(other, (list, tuple)):
        if len(other) != n:
            raise RuntimeError(f"Tensor lists must have the same number of tensors, got {n} and {len(other)}")
        return other
    return [other] * n


def _finish(tensors: Sequence[Any], results: List[Any], inplace: bool) -> Optional[Tuple[Any, ...]]:
    """The results as a tuple (torch returns a TensorList as a tuple), or written back into `tensors`."""
    if not inplace:
        return tuple(results)
    for t, r in zip(tensors, results):
        write_back(t, r)
    return None


def _binary(name: str, inplace: bool) -> Callable:
    def impl(self: Sequence[Any], other: Any, **alpha: Any) -> Optional[Tuple[Any, ...]]:
        f = kernel(name)
        return _finish(self, [f(t, o, **alpha) for t, o in zip(self, _per_tensor(other, len(self)))], inplace)
    impl.__doc__ = f"torch._foreach_{name}{'_' if inplace else ''}(tensors, scalar | scalars | tensors[, alpha])"
    return impl


def _pointwise(name: str, inplace: bool) -> Callable:
    def impl(self: Sequence[Any], tensor1: Sequence[Any], tensor2: Sequence[Any], value: Any = 1) -> Any:
        f, n = kernel(name), len(self)
        res = [f(t, a, b, value=v) for t, a, b, v in
               zip(self, _per_tensor(tensor1, n), _per_tensor(tensor2, n), _per_tensor(value, n))]
        return _finish(self, res, inplace)
    impl.__doc__ = f"torch._foreach_{name}{'_' if inplace else ''}(tensors, tensors1, tensors2, value | values)"
    return impl


def _unary(name: str, inplace: bool) -> Callable:
    def impl(self: Sequence[Any]) -> Optional[Tuple[Any, ...]]:
        f = kernel(name)
        return _finish(self, [f(t) for t in self], inplace)
    impl.__doc__ = f"torch._foreach_{name}{'_' if inplace else ''}(tensors)"
    return impl


for _name, _make in (("add", _binary), ("sub", _binary), ("mul", _binary), ("div", _binary),
                     ("addcmul", _pointwise), ("addcdiv", _pointwise),
                     ("sqrt", _unary), ("exp", _unary), ("neg", _unary), ("abs", _unary)):
    register(f"_foreach_{_name}", method=False)(_make(_name, False))
    register(f"_foreach_{_name}_", method=False)(_make(_name, True))


@register("_foreach_zero_", method=False)
def _foreach_zero_(self: Sequence[Any]) -> None:
    """torch._foreach_zero_(tensors)."""
    zeros = kernel("zeros_like")
    _finish(self, [zeros(t) for t in self], True)


@register("_foreach_norm", method=False)
def _foreach_norm(self: Sequence[Any], ord: Any = 2) -> Tuple[Any, ...]:
    """torch._foreach_norm(tensors, ord=2): one 0-d vector norm per tensor."""
    norm = kernel("norm")
    return tuple(norm(t, ord) for t in self)
