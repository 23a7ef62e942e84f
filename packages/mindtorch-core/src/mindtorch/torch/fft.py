"""torch.fft: the op table's `fft_*` entries under torch's public names (fft, ifft, rfft, fft2, fftn, fftfreq, ...).

Computed on the host with numpy's pocketfft: values and dtypes as torch; each transform is one autograd node
whose backward is its adjoint (torch's formulas, also on the host), so gradients of every order flow through.
"""
from typing import Any as _Any

from ._ops import _registry as _registry

globals().update({(k[len("fft_"):] if k.startswith("fft_") else k): v
                  for k, v in _registry.namespace("fft").items()})


def __getattr__(name: str) -> _Any:
    from ._unsupported import unsupported

    raise unsupported("fft", name)
