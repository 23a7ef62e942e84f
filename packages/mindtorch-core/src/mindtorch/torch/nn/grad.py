"""torch.nn.grad: the gradients of convolutions with respect to their input or weight, as functions
(`conv2d_input(input_size, weight, grad_output, ...)`, `conv2d_weight(input, weight_size, grad_output, ...)`).

Computed by differentiating the same convolution with mindtorch's autograd (torch.autograd.grad), so they are
exactly the gradients `backward` would give."""
from __future__ import annotations

from typing import Any, Sequence

__all__ = ["conv1d_input", "conv1d_weight", "conv2d_input", "conv2d_weight", "conv3d_input", "conv3d_weight"]


def _conv(n: int) -> Any:
    from . import functional as F

    return (F.conv1d, F.conv2d, F.conv3d)[n - 1]


def _input_grad(n: int, input_size: Sequence[int], weight: Any, grad_output: Any, stride: Any, padding: Any,
                dilation: Any, groups: int) -> Any:
    import mindtorch.torch as torch

    x = torch.zeros(tuple(input_size), dtype=weight.dtype, requires_grad=True)
    with torch.enable_grad():
        out = _conv(n)(x, weight.detach(), None, stride, padding, dilation, groups)
        return torch.autograd.grad(out, x, grad_output)[0]


def _weight_grad(n: int, input: Any, weight_size: Sequence[int], grad_output: Any, stride: Any, padding: Any,
                 dilation: Any, groups: int) -> Any:
    import mindtorch.torch as torch

    w = torch.zeros(tuple(weight_size), dtype=input.dtype, requires_grad=True)
    with torch.enable_grad():
        out = _conv(n)(input.detach(), w, None, stride, padding, dilation, groups)
        return torch.autograd.grad(out, w, grad_output)[0]


def conv1d_input(input_size: Sequence[int], weight: Any, grad_output: Any, stride: Any = 1, padding: Any = 0,
                 dilation: Any = 1, groups: int = 1) -> Any:
    """d(conv1d)/d(input) applied to grad_output: a tensor of `input_size` (N, C_in, L)."""
    return _input_grad(1, input_size, weight, grad_output, stride, padding, dilation, groups)


def conv1d_weight(input: Any, weight_size: Sequence[int], grad_output: Any, stride: Any = 1, padding: Any = 0,
                  dilation: Any = 1, groups: int = 1) -> Any:
    """d(conv1d)/d(weight) applied to grad_output: a tensor of `weight_size` (C_out, C_in/groups, k)."""
    return _weight_grad(1, input, weight_size, grad_output, stride, padding, dilation, groups)


def conv2d_input(input_size: Sequence[int], weight: Any, grad_output: Any, stride: Any = 1, padding: Any = 0,
                 dilation: Any = 1, groups: int = 1) -> Any:
    """d(conv2d)/d(input) applied to grad_output: a tensor of `input_size` (N, C_in, H, W)."""
    return _input_grad(2, input_size, weight, grad_output, stride, padding, dilation, groups)


def conv2d_weight(input: Any, weight_size: Sequence[int], grad_output: Any, stride: Any = 1, padding: Any = 0,
                  dilation: Any = 1, groups: int = 1) -> Any:
    """d(conv2d)/d(weight) applied to grad_output: a tensor of `weight_size` (C_out, C_in/groups, kH, kW)."""
    return _weight_grad(2, input, weight_size, grad_output, stride, padding, dilation, groups)


def conv3d_input(input_size: Sequence[int], weight: Any, grad_output: Any, stride: Any = 1, padding: Any = 0,
                 dilation: Any = 1, groups: int = 1) -> Any:
    """d(conv3d)/d(input) applied to grad_output: a tensor of `input_size` (N, C_in, D, H, W)."""
    return _input_grad(3, input_size, weight, grad_output, stride, padding, dilation, groups)


def conv3d_weight(input: Any, weight_size: Sequence[int], grad_output: Any, stride: Any = 1, padding: Any = 0,
                  dilation: Any = 1, groups: int = 1) -> Any:
    """d(conv3d)/d(weight) applied to grad_output: a tensor of `weight_size` (C_out, C_in/groups, kD, kH, kW)."""
    return _weight_grad(3, input, weight_size, grad_output, stride, padding, dilation, groups)
