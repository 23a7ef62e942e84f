"""dtype groups usable inside MindSpore graph mode, where `dtype.is_floating_point` is not available.

The manual's FAQ: replace `x_dtype.is_floating_point` with `x_dtype in all_float_type`, and likewise
`all_signed_type` for `is_signed` and `all_complex_type` for `is_complex`.
"""
from .._dtype import all_complex_type, all_float_type, all_int_type, all_signed_type

__all__ = ["all_float_type", "all_signed_type", "all_complex_type", "all_int_type"]
