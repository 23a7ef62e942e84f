"""torch.distributions.Distribution: shapes, sampling entry points and argument validation shared by every
distribution (torch 1.12's base class, built on mindtorch ops so log_prob/rsample are differentiable)."""
from __future__ import annotations

from typing import Any, Callable, Dict, Optional, Tuple

import mindtorch.torch as torch

_VALIDATE_DEFAULT = __debug__  # torch 1.12 validates arguments unless Python runs with -O

# constraint kind -> (check(value, bound), torch's name of the constraint); `bound` is GreaterThan's lower bound
_CONSTRAINTS: Dict[str, Tuple[Callable[[Any, float], Any], Callable[[float], str]]] = {
    "gt": (lambda v, b: v > b, lambda b: f"GreaterThan(lower_bound={float(b)})"),
    "unit_interval": (lambda v, b: (v >= 0) & (v <= 1), lambda b: "Interval(lower_bound=0.0, upper_bound=1.0)"),
    "simplex": (lambda v, b: (v >= 0).all(-1) & ((v.sum(-1) - 1).abs() < 1e-6), lambda b: "Simplex()"),
    "real": (lambda v, b: v == v, lambda b: "Real()"),
}


class Distribution:
    """Abstract base: a batch of distributions of shape `batch_shape`, each over events of shape `event_shape`.

    A sample of `sample(sample_shape)` has shape sample_shape + batch_shape + event_shape."""

    has_rsample = False
    arg_constraints: Dict[str, Tuple[str, float]] = {}  # parameter name -> (a kind of _CONSTRAINTS, bound)
    # parameter -> how to derive it from the form that was given (torch's lazy_property: probs <-> logits)
    _derived: Dict[str, Callable[[Any], Any]] = {}

    def __getattr__(self, name: str) -> Any:  # only reached for a missing attribute
        derive = type(self)._derived.get(name)
        try:
            if derive is None:
                raise KeyError(name)
            value = self.__dict__[name] = derive(self)
        except KeyError:
            raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'") from None
        return value

    @staticmethod
    def set_default_validate_args(value: bool) -> None:
        global _VALIDATE_DEFAULT
        if value not in (True, False):
            raise ValueError
        _VALIDATE_DEFAULT = value

    def __init__(self, batch_shape: Any = (), event_shape: Any = (),
                 validate_args: Optional[bool] = None) -> None:
        self._batch_shape = torch.Size(batch_shape)
        self._event_shape = torch.Size(event_shape)
        self._validate_args = _VALIDATE_DEFAULT if validate_args is None else validate_args
        if self._validate_args:
            for name, (kind, bound) in self.arg_constraints.items():
                if name not in self.__dict__:
                    continue  # a parameter given in its other form (probs vs logits): only the given one is checked
                value = self.__dict__[name]
                check, describe = _CONSTRAINTS[kind]
                if not bool(check(value, bound).all()):
                    raise ValueError(f"Expected parameter {name} ({type(value).__name__} of shape "
                                     f"{tuple(value.shape)}) of distribution {self!r} to satisfy the constraint "
                                     f"{describe(bound)}, but found invalid values:\n{value}")

    @property
    def batch_shape(self) -> Any:
        return self._batch_shape

    @property
    def event_shape(self) -> Any:
        return self._event_shape

    @property
    def mean(self) -> Any:
        raise NotImplementedError

    @property
    def variance(self) -> Any:
        raise NotImplementedError

    @property
    def stddev(self) -> Any:
        return self.variance.sqrt()

    def sample(self, sample_shape: Any = ()) -> Any:
        with torch.no_grad():
            return self.rsample(sample_shape)

    def rsample(self, sample_shape: Any = ()) -> Any:
        raise NotImplementedError(f"{type(self).__name__} has no reparameterized sampling (rsample)")

    def sample_n(self, n: int) -> Any:
        return self.sample(torch.Size((n,)))

    def log_prob(self, value: Any) -> Any:
        raise NotImplementedError

    def cdf(self, value: Any) -> Any:
        raise NotImplementedError

    def icdf(self, value: Any) -> Any:
        raise NotImplementedError

    def entropy(self) -> Any:
        raise NotImplementedError

    def perplexity(self) -> Any:
        return torch.exp(self.entropy())

    def _extended_shape(self, sample_shape: Any = ()) -> Any:
        return torch.Size(tuple(sample_shape) + tuple(self._batch_shape) + tuple(self._event_shape))

    def _validate_sample(self, value: Any) -> None:
        if not isinstance(value, torch.Tensor):
            raise ValueError("The value argument to log_prob must be a Tensor")
        event_dim = len(self._event_shape)
        if tuple(value.shape[len(value.shape) - event_dim:]) != tuple(self._event_shape):
            raise ValueError(f"The right-most size of value must match event_shape: {tuple(value.shape)} vs "
                             f"{tuple(self._event_shape)}.")

    def __repr__(self) -> str:
        names = [k for k in self.arg_constraints if k in self.__dict__]
        args = ", ".join(f"{k}: {self.__dict__[k] if self.__dict__[k].numel() == 1 else self.__dict__[k].size()}"
                         for k in names)
        return f"{type(self).__name__}({args})"
