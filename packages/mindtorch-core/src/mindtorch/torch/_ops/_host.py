"""Host (numpy/LAPACK/pocketfft) computations as autograd nodes, shared by linalg.py and fft.py.

`_host_op(compute, vjp, *inputs)` runs `compute` on the host and, when autograd records and an input needs a
gradient, records one `_HostFn` node whose backward is `vjp`. With create_graph=True the backward records
whatever `vjp` does: linalg's vjps are MindSpore ops; fft's are host transforms recorded as `_host_op`s again.
"""
from __future__ import annotations

from typing import Any

from mindspore import ops

from .. import _ms
from ..autograd.function import Function


class _HostFn(Function):
    """A host (numpy/LAPACK) computation as one autograd node: forward `compute(*inputs)` -> one MindSpore
    tensor; backward `vjp(inputs, output, grad)` -> one gradient (or None) per input, as MindSpore tensors.
    MindSpore's own CPU kernels are missing (CholeskyGrad, MatrixExp, complex FFT gradients) or do not report
    singular input, and torch's error/info semantics need the LAPACK factorization on the host anyway."""

    @staticmethod
    def forward(ctx: Any, compute: Any, vjp: Any, *inputs: Any) -> Any:
        out = compute(*inputs)
        ctx.vjp = vjp
        ctx.save_for_backward(*inputs, out)
        return out

    @staticmethod
    def backward(ctx: Any, grad: Any) -> Any:
        *inputs, out = ctx.saved_tensors
        return (None, None, *ctx.vjp(inputs, out, grad))


def _host_op(compute: Any, vjp: Any, *inputs: Any) -> Any:
    """compute(*inputs), recorded with `vjp` as its backward when autograd records and an input needs grad."""
    if _ms.records_grad(*inputs):
        return _HostFn.apply(compute, vjp, *inputs)
    return compute(*inputs)


def _no_vjp(op: str) -> Any:
    """A `vjp` for host computations torch differentiates but mindtorch does not yet: backward raises, naming the
    op, rather than the input silently getting no gradient."""
    def vjp(inputs: Any, out: Any, grad: Any) -> Any:
        raise NotImplementedError(f"mindtorch: the derivative of {op} is not implemented (computed on the host "
                                  "with numpy)")
    return vjp


def zeros_vjp(inputs: Any, out: Any, grad: Any) -> Any:
    """The `vjp` of a result that does not depend on its inputs' values (an empty product, the reduction of an
    empty tensor): zero gradients of the inputs' shapes, as torch gives."""
    return tuple(ops.zeros_like(x) for x in inputs)
