"""`Tensor.grad_fn` objects: a torch-like face over MindSpore's C++ `BackwardNode`.

MindSpore names its nodes after the forward primitive ("Muls", "AddExt", "SumExt", "StridedSlice") or the custom
Function class. The nodes of the ops a training script prints most (arithmetic, reductions, products, views,
activations, losses) carry torch's names (`_TORCH_NAMES`: `<MulBackward0 object at ...>`, `grad_fn=<NllLossBackward0>`,
`type(y.grad_fn).__name__`); other nodes keep `<Primitive>Backward`. `next_functions` follows torch's shape: a tuple
of `(node, input_nr)` pairs, leaves appearing as `AccumulateGrad` nodes and non-differentiable inputs as `(None, 0)`.
"""
from __future__ import annotations

from typing import Any, Callable, Optional, Tuple

import mindspore as ms

from .. import _ms

# MindSpore node name (primitive or mindtorch Function) -> torch's node name. Where torch has several variants of
# one primitive's node (SumBackward0 for a full sum, SumBackward1 with dims) the full-reduction one is named.
_TORCH_NAMES = {
    "Mul": "MulBackward0", "Muls": "MulBackward0", "Add": "AddBackward0", "AddExt": "AddBackward0",
    "Adds": "AddBackward0", "AddScalar": "AddBackward0", "Sub": "SubBackward0", "SubExt": "SubBackward0",
    "SubScalar": "SubBackward0", "Div": "DivBackward0", "Divs": "DivBackward0", "RealDiv": "DivBackward0",
    "Neg": "NegBackward0", "SumExt": "SumBackward0", "ReduceSum": "SumBackward0", "MeanExt": "MeanBackward0",
    "ReduceMean": "MeanBackward0", "ReLU": "ReluBackward0", "Sigmoid": "SigmoidBackward0", "Tanh": "TanhBackward0",
    "Exp": "ExpBackward0", "Log": "LogBackward0", "Pow": "PowBackward0", "PowTensorScalar": "PowBackward0",
    "Sqrt": "SqrtBackward0", "Abs": "AbsBackward0", "Reshape": "ViewBackward0", "SelectView": "SelectBackward0",
    "StridedSlice": "SliceBackward0", "SliceExt": "SliceBackward0", "Concat": "CatBackward0",
    "Stack": "StackBackward0", "Cast": "ToCopyBackward0", "TransposeView": "PermuteBackward0",
    "TransposeExtView": "TransposeBackward0", "ExpandDimsView": "UnsqueezeBackward0",
    "BroadcastToView": "ExpandBackward0", "GatherD": "GatherBackward0", "Gather": "EmbeddingBackward0",
    "_OneDnnMatmul": "MmBackward0", "_GatherD": "GatherBackward0", "_OneDnnConv": "ConvolutionBackward0",
    "_OneDnnSoftmax": "SoftmaxBackward0", "_Prod": "ProdBackward0", "_CumProd": "CumprodBackward0",
    "_EvenlySplit": "MedianBackward0",
    "_OneDnnGelu": "GeluBackward0", "_OneDnnLayerNorm": "NativeLayerNormBackward0",
    "SparseSoftmaxCrossEntropyWithLogits": "NllLossBackward0", "BatchNorm": "NativeBatchNormBackward0",
    "MaskedFill": "MaskedFillBackward0",
}
_NODE_CLASSES: dict = {}


class Node:
    """One node of the backward graph (torch.autograd.graph.Node). `Tensor.grad_fn` is an instance of a subclass
    named as torch's node class (`type(y.grad_fn).__name__ == "MulBackward0"`), see `_node`."""

    __slots__ = ("_node", "_owner")

    def __init__(self, node: Any, owner: Any = None) -> None:
        self._node = node
        # MindSpore's Python node handle does not own the C++ node: keep the tensor that does alive, so that
        # `f(x).grad_fn.name()` on a temporary works (torch's grad_fn keeps its graph alive).
        self._owner = owner

    def name(self) -> str:
        if self._node.is_leaf():
            return "torch::autograd::AccumulateGrad"
        raw = self._node.name()
        return _TORCH_NAMES.get(raw) or f"{raw}Backward"

    @property
    def next_functions(self) -> Tuple[Tuple[Optional["Node"], int], ...]:
        out = []
        for node, idx in self._node.next_functions:
            out.append((None if node is None else _node(node, self._owner), int(idx)))
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
    return None if node is None else _node(node, t)


def _node(node: Any, owner: Any) -> Node:
    """A Node of the class named as torch's (MulBackward0, AccumulateGrad, ...), made once per name."""
    name = "AccumulateGrad" if node.is_leaf() else (_TORCH_NAMES.get(node.name()) or f"{node.name()}Backward")
    cls = _NODE_CLASSES.get(name)
    if cls is None:
        cls = _NODE_CLASSES[name] = type(name, (Node,), {"__slots__": ()})
    return cls(node, owner)


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
