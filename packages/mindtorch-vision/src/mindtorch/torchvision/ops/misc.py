"""Building blocks of torchvision.ops.misc (0.13): FrozenBatchNorm2d, Conv2dNormActivation, SqueezeExcitation,
MLP — on mindtorch's nn layers."""
from __future__ import annotations

from typing import Any, Callable, List, Optional

import mindtorch.torch as torch
import mindtorch.torch.nn as nn

__all__ = ["FrozenBatchNorm2d", "ConvNormActivation", "Conv2dNormActivation", "Conv3dNormActivation",
           "SqueezeExcitation", "MLP"]


class FrozenBatchNorm2d(nn.Module):
    """BatchNorm2d whose statistics and affine parameters are fixed buffers (no training update)."""

    def __init__(self, num_features: int, eps: float = 1e-5) -> None:
        super().__init__()
        self.eps = eps
        self.register_buffer("weight", torch.ones(num_features))
        self.register_buffer("bias", torch.zeros(num_features))
        self.register_buffer("running_mean", torch.zeros(num_features))
        self.register_buffer("running_var", torch.ones(num_features))

    def _load_from_state_dict(self, state_dict: dict, prefix: str, local_metadata: Any, strict: bool,
                              missing_keys: List[str], unexpected_keys: List[str], error_msgs: List[str]) -> None:
        num_batches_tracked_key = prefix + "num_batches_tracked"
        if num_batches_tracked_key in state_dict:
            del state_dict[num_batches_tracked_key]
        super()._load_from_state_dict(state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys,
                                      error_msgs)

    def forward(self, x: Any) -> Any:
        # move reshapes to the beginning to make it fuser-friendly
        w = self.weight.reshape(1, -1, 1, 1)
        b = self.bias.reshape(1, -1, 1, 1)
        rv = self.running_var.reshape(1, -1, 1, 1)
        rm = self.running_mean.reshape(1, -1, 1, 1)
        scale = w * (rv + self.eps).rsqrt()
        bias = b - rm * scale
        return x * scale + bias

    def __repr__(self) -> str:
        return f"{self.__class__.__name__}({self.weight.shape[0]}, eps={self.eps})"


class ConvNormActivation(nn.Sequential):
    def __init__(self, in_channels: int, out_channels: int, kernel_size: int = 3, stride: int = 1,
                 padding: Optional[int] = None, groups: int = 1,
                 norm_layer: Optional[Callable[..., Any]] = nn.BatchNorm2d,
                 activation_layer: Optional[Callable[..., Any]] = nn.ReLU, dilation: int = 1,
                 inplace: Optional[bool] = True, bias: Optional[bool] = None,
                 conv_layer: Callable[..., Any] = nn.Conv2d) -> None:
        if padding is None:
            padding = (kernel_size - 1) // 2 * dilation
        if bias is None:
            bias = norm_layer is None
        layers = [conv_layer(in_channels, out_channels, kernel_size, stride, padding, dilation=dilation,
                             groups=groups, bias=bias)]
        if norm_layer is not None:
            layers.append(norm_layer(out_channels))
        if activation_layer is not None:
            params = {} if inplace is None else {"inplace": inplace}
            layers.append(activation_layer(**params))
        super().__init__(*layers)
        self.out_channels = out_channels


class Conv2dNormActivation(ConvNormActivation):
    """Conv2d -> norm (BatchNorm2d) -> activation (ReLU); padding defaults to 'same' for odd kernels."""

    def __init__(self, in_channels: int, out_channels: int, kernel_size: int = 3, stride: int = 1,
                 padding: Optional[int] = None, groups: int = 1,
                 norm_layer: Optional[Callable[..., Any]] = nn.BatchNorm2d,
                 activation_layer: Optional[Callable[..., Any]] = nn.ReLU, dilation: int = 1,
                 inplace: Optional[bool] = True, bias: Optional[bool] = None) -> None:
        super().__init__(in_channels, out_channels, kernel_size, stride, padding, groups, norm_layer,
                         activation_layer, dilation, inplace, bias, nn.Conv2d)


class Conv3dNormActivation(ConvNormActivation):
    """Conv3d -> norm (BatchNorm3d) -> activation (ReLU)."""

    def __init__(self, in_channels: int, out_channels: int, kernel_size: int = 3, stride: int = 1,
                 padding: Optional[int] = None, groups: int = 1,
                 norm_layer: Optional[Callable[..., Any]] = getattr(nn, "BatchNorm3d", None),
                 activation_layer: Optional[Callable[..., Any]] = nn.ReLU, dilation: int = 1,
                 inplace: Optional[bool] = True, bias: Optional[bool] = None) -> None:
        conv3d = getattr(nn, "Conv3d", None)
        if conv3d is None:
            raise NotImplementedError("Conv3dNormActivation needs mindtorch.torch.nn.Conv3d, which core lacks")
        super().__init__(in_channels, out_channels, kernel_size, stride, padding, groups, norm_layer,
                         activation_layer, dilation, inplace, bias, conv3d)


class SqueezeExcitation(nn.Module):
    """Squeeze-and-Excitation (Hu et al. 2018): x * scale_activation(fc2(activation(fc1(avgpool(x)))))."""

    def __init__(self, input_channels: int, squeeze_channels: int,
                 activation: Callable[..., Any] = nn.ReLU,
                 scale_activation: Callable[..., Any] = nn.Sigmoid) -> None:
        super().__init__()
        self.avgpool = nn.AdaptiveAvgPool2d(1)
        self.fc1 = nn.Conv2d(input_channels, squeeze_channels, 1)
        self.fc2 = nn.Conv2d(squeeze_channels, input_channels, 1)
        self.activation = activation()
        self.scale_activation = scale_activation()

    def _scale(self, input: Any) -> Any:
        scale = self.avgpool(input)
        scale = self.fc1(scale)
        scale = self.activation(scale)
        scale = self.fc2(scale)
        return self.scale_activation(scale)

    def forward(self, input: Any) -> Any:
        scale = self._scale(input)
        return scale * input


class MLP(nn.Sequential):
    """Linear -> (norm) -> activation -> dropout for each hidden size; the last layer is Linear -> dropout."""

    def __init__(self, in_channels: int, hidden_channels: List[int],
                 norm_layer: Optional[Callable[..., Any]] = None,
                 activation_layer: Optional[Callable[..., Any]] = nn.ReLU, inplace: Optional[bool] = True,
                 bias: bool = True, dropout: float = 0.0) -> None:
        # The addition of `norm_layer` is inspired from the implementation of TorchMultimodal:
        params = {} if inplace is None else {"inplace": inplace}
        layers: List[Any] = []
        in_dim = in_channels
        for hidden_dim in hidden_channels[:-1]:
            layers.append(nn.Linear(in_dim, hidden_dim, bias=bias))
            if norm_layer is not None:
                layers.append(norm_layer(hidden_dim))
            layers.append(activation_layer(**params))
            layers.append(nn.Dropout(dropout, **params))
            in_dim = hidden_dim
        layers.append(nn.Linear(in_dim, hidden_channels[-1], bias=bias))
        layers.append(nn.Dropout(dropout, **params))
        super().__init__(*layers)
