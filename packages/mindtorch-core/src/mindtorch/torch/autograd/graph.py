"""`Tensor.grad_fn` objects: a torch-like face over MindSpore's C++ `BackwardNode`.

torch prints `<MulBackward0 object at ...>`; MindSpore names its nodes after the forward primitive ("Mul",
"MatMulExt", "SumExt") or the custom Function class, so ours print `<MulBackward object at ...>`.
`next_functions` follows torch's shape: a tuple of `(node, input_nr)` pairs, leaves appearing as
`AccumulateGrad` nodes and non-differentiable inputs as `(None, 0)`.
"""
from __future__ import annotations

from typing import Any, Callable, Optional, Tuple

from .. import _ms


class Node:
    """One node of the backward graph (torch.autograd.graph.Node)."""

    __slots__ = ("_node",)

    def __init__(self, node: Any) -> None:
        self._node = node

    def name(self) -> str:
        if self._node.is_leaf():
            return "torch::autograd::AccumulateGrad"
        return f"{self._node.name()}Backward"

    @property
    def next_functions(self) -> Tuple[Tuple[Optional["Node"], int], ...]:
        out = []
        for node, idx in self._node.next_functions:
            out.append((None if node is None else Node(node), int(idx)))
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
    node = _ms.grad_node(t)
    return None if node is None else Node(node)
