"""torch.nn.functional against real PyTorch: outputs and input gradients, with the same numpy inputs."""
import numpy as np
import pytest
from _nn_check import check_fn

import mindtorch.torch.nn.functional as F

R = np.random.RandomState(0)


def rn(*shape, scale=1.0):
    return (R.randn(*shape) * scale).astype(np.float32)


# (name, input arrays, kwargs, grad argnums)
CASES = [
    ("linear", [rn(3, 4), rn(5, 4), rn(5)], {}, (0, 1, 2)),
    ("linear", [rn(2, 3, 4), rn(5, 4)], {}, (0, 1)),
    ("bilinear", [rn(3, 4), rn(3, 2), rn(5, 4, 2), rn(5)], {}, (0, 1, 2, 3)),
    ("conv1d", [rn(2, 4, 9), rn(6, 2, 3), rn(6)], dict(stride=2, padding=1, groups=2), (0, 1, 2)),
    ("conv1d", [rn(2, 3, 10), rn(4, 3, 4)], dict(padding="same", dilation=2), (0, 1)),
    ("conv2d", [rn(2, 3, 9, 8), rn(4, 3, 3, 2), rn(4)], dict(stride=(2, 1), padding=(1, 0), dilation=(1, 2)),
     (0, 1, 2)),
    ("conv2d", [rn(2, 4, 7, 7), rn(6, 2, 4, 4)], dict(padding="same", groups=2), (0, 1)),
    ("conv2d", [rn(3, 6, 6), rn(2, 3, 3, 3)], dict(padding="valid"), (0, 1)),
    ("conv3d", [rn(1, 2, 5, 6, 5), rn(4, 1, 3, 2, 3), rn(4)], dict(stride=(1, 2, 1), padding=1, groups=2),
     (0, 1, 2)),
    ("max_pool1d", [rn(2, 3, 11)], dict(kernel_size=3, stride=2, padding=1, ceil_mode=True), (0,)),
    ("max_pool2d", [rn(2, 3, 9, 8)], dict(kernel_size=3, stride=2, padding=1, dilation=1, ceil_mode=True), (0,)),
    ("max_pool2d", [rn(2, 3, 9, 8)], dict(kernel_size=(2, 3), stride=(2, 1), dilation=2), (0,)),
    ("max_pool2d", [rn(2, 3, 7, 7)], dict(kernel_size=2, return_indices=True, ceil_mode=True), (0,)),
    ("max_pool2d", [rn(2, 3, 7, 9)], dict(kernel_size=2), (0,)),
    ("max_pool2d", [np.maximum(rn(2, 3, 8, 8), 0)], dict(kernel_size=2), (0,)),  # ties: grad to the first max
    ("max_pool1d", [rn(2, 3, 9)], dict(kernel_size=3), (0,)),
    ("avg_pool3d", [rn(1, 2, 4, 4, 6)], dict(kernel_size=2, ceil_mode=True), (0,)),
    ("max_pool3d", [rn(1, 2, 5, 6, 7)], dict(kernel_size=2, stride=(1, 2, 2), padding=1, return_indices=True), (0,)),
    ("avg_pool1d", [rn(2, 3, 11)], dict(kernel_size=3, stride=2, padding=1, ceil_mode=True,
                                          count_include_pad=False), (0,)),
    ("avg_pool2d", [rn(2, 3, 9, 8)], dict(kernel_size=3, stride=2, padding=1, ceil_mode=True), (0,)),
    ("avg_pool2d", [rn(2, 3, 9, 8)], dict(kernel_size=3, stride=2, padding=1, count_include_pad=False), (0,)),
    ("avg_pool2d", [rn(2, 3, 8, 8)], dict(kernel_size=2, divisor_override=3), (0,)),
    ("avg_pool3d", [rn(1, 2, 5, 6, 7)], dict(kernel_size=(2, 3, 2), stride=2, padding=1, ceil_mode=True), (0,)),
    ("adaptive_avg_pool1d", [rn(2, 3, 10)], dict(output_size=4), (0,)),
    ("adaptive_avg_pool2d", [rn(2, 3, 7, 9)], dict(output_size=(3, 4)), (0,)),
    ("adaptive_avg_pool2d", [rn(2, 3, 8, 8)], dict(output_size=1), (0,)),
    ("adaptive_avg_pool3d", [rn(1, 2, 5, 6, 7)], dict(output_size=(2, 3, 4)), (0,)),
    ("adaptive_max_pool1d", [rn(2, 3, 10)], dict(output_size=4, return_indices=True), (0,)),
    ("adaptive_max_pool2d", [rn(2, 3, 7, 9)], dict(output_size=(3, 4)), (0,)),
    ("adaptive_max_pool2d", [rn(2, 3, 7, 9)], dict(output_size=(3, 4), return_indices=True), (0,)),
    ("lp_pool2d", [np.abs(rn(2, 3, 8, 8)) + 0.1], dict(norm_type=2, kernel_size=2), (0,)),
    ("layer_norm", [rn(2, 3, 5)], dict(normalized_shape=(3, 5)), (0,)),
    ("group_norm", [rn(2, 6, 4, 3)], dict(num_groups=3), (0,)),
    ("local_response_norm", [rn(2, 6, 4, 3)], dict(size=3), (0,)),
    ("normalize", [rn(4, 5)], dict(p=2, dim=1), (0,)),
    ("normalize", [rn(4, 5)], dict(p=1, dim=0), (0,)),
    ("relu6", [rn(3, 4, scale=5)], {}, (0,)),
    ("leaky_relu", [rn(3, 4)], dict(negative_slope=0.2), (0,)),
    ("elu", [rn(3, 4)], dict(alpha=0.7), (0,)),
    ("celu", [rn(3, 4)], dict(alpha=0.7), (0,)),
    ("selu", [rn(3, 4)], {}, (0,)),
    ("gelu", [rn(3, 4)], {}, (0,)),
    ("gelu", [rn(3, 4)], dict(approximate="tanh"), (0,)),
    ("silu", [rn(3, 4)], {}, (0,)),
    ("mish", [rn(3, 4)], {}, (0,)),
    ("hardtanh", [rn(3, 4)], dict(min_val=-0.5, max_val=0.7), (0,)),
    ("hardswish", [rn(3, 4, scale=4)], {}, (0,)),
    ("hardsigmoid", [rn(3, 4, scale=4)], {}, (0,)),
    ("hardshrink", [rn(3, 4)], dict(lambd=0.3), (0,)),
    ("softshrink", [rn(3, 4)], dict(lambd=0.3), (0,)),
    ("tanhshrink", [rn(3, 4)], {}, (0,)),
    ("threshold", [rn(3, 4)], dict(threshold=0.1, value=-2.0), (0,)),
    ("softplus", [rn(3, 4, scale=10)], dict(beta=2, threshold=5), (0,)),
    ("softsign", [rn(3, 4)], {}, (0,)),
    ("logsigmoid", [rn(3, 4, scale=10)], {}, (0,)),
    ("glu", [rn(3, 4)], dict(dim=1), (0,)),
    ("prelu", [rn(2, 3, 4), np.array([0.1, 0.2, 0.3], np.float32)], {}, (0, 1)),
    ("softmin", [rn(3, 4)], dict(dim=1), (0,)),
    ("relu", [rn(3, 4)], {}, (0,)),
    ("sigmoid", [rn(3, 4)], {}, (0,)),
    ("tanh", [rn(3, 4)], {}, (0,)),
    ("softmax", [rn(3, 4)], dict(dim=0), (0,)),
    ("log_softmax", [rn(3, 4, 2)], dict(dim=1), (0,)),
    ("pad", [rn(2, 3, 4, 5)], dict(pad=(1, 2, 0, 1)), (0,)),
    ("pad", [rn(2, 3, 4, 5)], dict(pad=(1, -2, 2, 1), value=3.5), (0,)),
    ("pad", [rn(2, 3, 4, 5)], dict(pad=(2, 1, 3, 0), mode="reflect"), (0,)),
    ("pad", [rn(2, 3, 5)], dict(pad=(2, 1), mode="replicate"), (0,)),
    ("pad", [rn(2, 3, 4, 5)], dict(pad=(2, 1, 3, 0), mode="circular"), (0,)),
    ("pad", [rn(1, 2, 3, 4, 5)], dict(pad=(1, 1, 2, 0, 1, 2), mode="replicate"), (0,)),
    ("pad", [rn(1, 2, 3, 4, 5)], dict(pad=(1, 1, 2, 0, 1, 2), mode="reflect"), (0,)),
    ("interpolate", [rn(2, 3, 5, 4)], dict(size=(7, 9), mode="nearest"), (0,)),
    ("interpolate", [rn(2, 3, 5, 4)], dict(scale_factor=1.7, mode="nearest"), (0,)),
    ("interpolate", [rn(2, 3, 5, 4)], dict(size=(3, 9), mode="nearest-exact"), (0,)),
    ("interpolate", [rn(2, 3, 5)], dict(size=9, mode="linear"), (0,)),
    ("interpolate", [rn(2, 3, 5, 4)], dict(size=(7, 3), mode="bilinear"), (0,)),
    ("interpolate", [rn(2, 3, 5, 4)], dict(size=(7, 3), mode="bilinear", align_corners=True), (0,)),
    ("interpolate", [rn(2, 3, 5, 4)], dict(scale_factor=(1.5, 2.3), mode="bilinear"), (0,)),
    ("interpolate", [rn(2, 3, 5, 4)], dict(scale_factor=(1.5, 2.3), mode="bilinear",
                                           recompute_scale_factor=True), (0,)),
    ("interpolate", [rn(2, 3, 5, 4)], dict(size=(8, 7), mode="bicubic"), (0,)),
    ("interpolate", [rn(2, 3, 5, 4)], dict(size=(8, 7), mode="bicubic", align_corners=True), (0,)),
    ("interpolate", [rn(1, 2, 3, 4, 5)], dict(size=(4, 5, 3), mode="trilinear"), (0,)),
    ("interpolate", [rn(2, 3, 7, 9)], dict(size=(3, 4), mode="area"), (0,)),
    ("pixel_shuffle", [rn(2, 8, 3, 2)], dict(upscale_factor=2), (0,)),
    ("pixel_unshuffle", [rn(2, 2, 4, 6)], dict(downscale_factor=2), (0,)),
    ("channel_shuffle", [rn(2, 6, 3, 2)], dict(groups=3), None),
    ("unfold", [rn(2, 3, 6, 7)], dict(kernel_size=(2, 3), dilation=(1, 2), padding=1, stride=(2, 1)), (0,)),
    ("fold", [rn(2, 12, 21)], dict(output_size=(5, 6), kernel_size=2, stride=(2, 1), padding=1), (0,)),
    ("cosine_similarity", [rn(3, 5), rn(3, 5)], dict(dim=1), (0, 1)),
    ("pairwise_distance", [rn(3, 5), rn(3, 5)], {}, (0, 1)),
    ("scaled_dot_product_attention", [rn(2, 3, 4), rn(2, 5, 4), rn(2, 5, 6)], {}, (0, 1, 2)),
    ("conv_transpose1d", [rn(2, 4, 5), rn(4, 3, 3), rn(6)], dict(stride=2, padding=1, output_padding=1, groups=2),
     (0, 1, 2)),
    ("conv_transpose2d", [rn(2, 3, 4, 5), rn(3, 2, 3, 2)], dict(stride=(2, 1), padding=(0, 1), dilation=(1, 2)),
     (0, 1)),
    ("conv_transpose2d", [rn(1, 2, 3, 3), rn(2, 3, 4, 4), rn(3)], dict(stride=3, padding=2, output_padding=1),
     (0, 1, 2)),
    ("conv_transpose3d", [rn(1, 2, 3, 2, 3), rn(2, 2, 2, 3, 2)], dict(stride=(1, 2, 1)), (0, 1)),
    ("pdist", [rn(5, 3)], {}, (0,)),
    ("affine_grid", [rn(2, 2, 3)], dict(size=(2, 3, 4, 5), align_corners=False), (0,)),
    ("affine_grid", [rn(2, 3, 4)], dict(size=(2, 3, 2, 4, 5), align_corners=True), (0,)),
    ("grid_sample", [rn(2, 3, 5, 6), rn(2, 4, 3, 2) * 0.9], dict(align_corners=False), (0, 1)),
    ("grid_sample", [rn(2, 3, 5, 6), rn(2, 4, 3, 2) * 1.5], dict(padding_mode="border", align_corners=True),
     (0, 1)),
    ("grid_sample", [rn(2, 3, 5, 6), rn(2, 4, 3, 2) * 1.5], dict(padding_mode="reflection"), (0, 1)),
    ("grid_sample", [rn(2, 3, 5, 6), rn(2, 4, 3, 2) * 0.9], dict(mode="nearest", align_corners=False), (0,)),
    ("scaled_dot_product_attention", [rn(2, 4, 4), rn(2, 4, 4), rn(2, 4, 6)], dict(is_causal=True), (0, 1, 2)),
]


@pytest.mark.parametrize("case", CASES, ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)])
def test_functional_matches_torch(reftorch, case):
    name, arrays, kwargs, grads = case
    fn_ref = getattr(reftorch.nn.functional, name)
    fn_mine = getattr(F, name)
    if name == "channel_shuffle":  # torch's channel_shuffle has no autograd kernel on CPU
        check_fn(reftorch, lambda *a: fn_mine(*a, **kwargs), lambda *a: fn_ref(*a, **kwargs), arrays)
        return
    check_fn(reftorch, lambda *a: fn_mine(*a, **kwargs), lambda *a: fn_ref(*a, **kwargs), arrays, grads or ())
