"""`Tensor.grad_fn` objects: a torch-like face over MindSpore's C++ `BackwardNode`.

torch prints `<MulBackward0 object at ...>`; MindSpore names its nodes after the forward primitive ("Mul",
"MatMulExt", "SumExt") or the custom Function class, so ours print `<MulBackward object at ...>`.
`next_functions` follows torch's shape: a tuple of `(node, input_nr)` pairs, leaves appearing as
`AccumulateGrad` nodes and non-differentiable inputs as `(None, 0)`.
"""
from __future__ import annotations

from typing import Any, Callable, Optional, Tuple

import mindspore as ms

from .. import _ms


class Node:
    """One node of the backward graph (torch.autograd.graph.Node)."""

    __slots__ = ("_node", "_owner")

    def __init__(self, node: Any, owner: Any = None) -> None:
        self._node = node
        # MindSpore's Python node handle does not own the C++ node: keep the tensor that does alive, so that
        # `f(x).grad_fn.name()` on a temporary works (torch's grad_fn keeps its graph alive).
        self._owner = owner

    def name(self) -> str:
        if self._node.is_leaf():
            return "torch::autograd::AccumulateGrad"
        return f"{self._node.name()}Backward"

    @property
    def next_functions(self) -> Tuple[Tuple[Optional["Node"], int], ...]:
        out = []
        for node, idx in self._node.next_functions:
            out.append((None if node is None else Node(node, self._owner), int(idx)))
        return tuple(out)

    def register_hook(self, fn: Callable[..., Any]) -> Any:
        """fn(grad_inputs, grad_outputs) after the node ran (MindSpore's node hook)."""
        return self._node.register_hook(fn)

    def register_prehook(self, fn: Callable[..., Any]) -> Any:
        return self._node.register_prehook(fn)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Node) and other._node._unique_id() == self._node._unique_id()

    def __hash__(self) -> int:
        return hash(self._node._unique_id())

    def __repr__(self) -> str:
        n = self.name()
        short = "AccumulateGrad" if n.startswith("torch::") else n
        return f"<{short} object at {hex(id(self._node))}>"


def grad_fn_of(t: Any) -> Optional[Node]:
    try:
        node = _ms.grad_node(t)
    except RuntimeError:
        node = t.__dict__.get("_mt_grad_node")  # a Function's output after backward (see Function.apply)
        if node is None:
            raise
    return None if node is None else Node(node, t)


class saved_tensors_hooks:
    """`with saved_tensors_hooks(pack_hook, unpack_hook):` operations recorded inside save their tensors for
    backward as `pack_hook(tensor)` and get them back as `unpack_hook(packed)` (torch 1.10+), on MindSpore's own
    saved-tensor hooks of the same tape."""

    def __init__(self, pack_hook: Callable[[Any], Any], unpack_hook: Callable[[Any], Any]) -> None:
        from ._tensor_mixin import _as_torch

        self.pack_hook = pack_hook
        self.unpack_hook = unpack_hook
        self._ms_hooks = ms.saved_tensors_hooks(lambda t: pack_hook(_as_torch(t)), unpack_hook)

    def __enter__(self) -> "saved_tensors_hooks":
        self._ms_hooks.__enter__()
        return self

    def __exit__(self, *exc: Any) -> None:
        self._ms_hooks.__exit__(*exc)


class save_on_cpu(saved_tensors_hooks):
    """torch's `save_on_cpu(pin_memory=False)`: saved tensors kept in host memory. mindtorch tensors live where the
    MindSpore device target puts them (`tensor.device` is only recorded, see DESIGN.md §2), so on CPU this is the
    plain saving; on an accelerator target tensors are copied to host numpy and back."""

    def __init__(self, pin_memory: bool = False) -> None:
        on_cpu = _ms.device_target() == "CPU"

        def pack(t: Any) -> Any:
            return t if on_cpu else (t.dtype, t.asnumpy())

        def unpack(p: Any) -> Any:
            return p if on_cpu else ms.Tensor(p[1], dtype=p[0])

        super().__init__(pack, unpack)
