"""torch.distributions.Distribution: shapes, sampling entry points, expand and argument validation shared by
every distribution (torch 1.12's base class, built on mindtorch ops so log_prob/rsample are differentiable)."""
from __future__ import annotations

import warnings
from typing import Any, Dict, Optional

import mindtorch.torch as torch

from . import constraints
from .utils import lazy_property

_VALIDATE_DEFAULT = __debug__  # torch 1.12 validates arguments unless Python runs with -O


class Distribution:
    """Abstract base: a batch of distributions of shape `batch_shape`, each over events of shape `event_shape`.

    A sample of `sample(sample_shape)` has shape sample_shape + batch_shape + event_shape; `log_prob(value)`
    takes a value broadcastable to batch_shape + event_shape and returns its batch shape.
    `arg_constraints` maps parameter names to the `constraints` they must satisfy; with `validate_args`
    (default on, as torch 1.12) the parameters are checked on construction and values on log_prob/cdf."""

    has_rsample = False
    has_enumerate_support = False

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
        if validate_args is not None:
            self._validate_args = validate_args
        if self._validate_args:
            try:
                arg_constraints = self.arg_constraints
            except NotImplementedError:
                arg_constraints = {}
                warnings.warn(f"{self.__class__} does not define `arg_constraints`. Please set "
                              "`arg_constraints = {}` or initialize the distribution with `validate_args=False` to "
                              "turn off validation.")
            for param, constraint in arg_constraints.items():
                if constraints.is_dependent(constraint):
                    continue  # cannot be checked (depends on other parameters)
                if param not in self.__dict__ and isinstance(getattr(type(self), param, None), lazy_property):
                    continue  # a parameter given in its other form (probs vs logits): only the given one is checked
                value = getattr(self, param)
                if not bool(constraint.check(value).all()):
                    raise ValueError(f"Expected parameter {param} ({type(value).__name__} of shape "
                                     f"{tuple(value.shape)}) of distribution {self!r} to satisfy the constraint "
                                     f"{constraint!r}, but found invalid values:\n{value}")

    @property
    def arg_constraints(self) -> Dict[str, constraints.Constraint]:
        """Parameter name -> the constraint it must satisfy; every distribution defines it (as torch, the base
        class raises, and validation then warns and checks nothing)."""
        raise NotImplementedError

    # an instance without its own flag (made by expand's __new__) falls back to the global default
    @property
    def _validate_args(self) -> bool:
        return self.__dict__.get("_validate_args_flag", _VALIDATE_DEFAULT)

    @_validate_args.setter
    def _validate_args(self, value: bool) -> None:
        self.__dict__["_validate_args_flag"] = bool(value)

    def expand(self, batch_shape: Any, _instance: Any = None) -> "Distribution":
        """A view of this distribution with a larger `batch_shape` (parameters are expanded, not copied).

        Parameters (tensors named in the `arg_constraints` of the class or its bases) keep their trailing
        non-batch dims; other attributes are shared. Distributions built on an inner distribution extend this.

        torch gives each distribution class its own expand, which checks the instance against that class (a
        subclass with a custom __init__ must define its own expand); this one expand stands for the nearest class
        of this package in the instance's MRO, and raises like torch's abstract bases for those."""
        cls = next(c for c in type(self).__mro__ if c.__module__.startswith(__package__ + "."))
        if cls.__name__ in ("Distribution", "ExponentialFamily"):
            raise NotImplementedError
        new = self._get_checked_instance(cls, _instance)
        batch_shape = torch.Size(batch_shape)
        n_old = len(self._batch_shape)
        # the class dicts (not the instance's): a subclass such as Chi2 names other parameters than its base
        params = {name for c in type(self).__mro__ if isinstance(c.__dict__.get("arg_constraints"), dict)
                  for name in c.__dict__["arg_constraints"]}
        for name, value in self.__dict__.items():
            if name in params and isinstance(value, torch.Tensor):
                value = value.expand(batch_shape + value.shape[n_old:])
            new.__dict__.setdefault(name, value)
        new._batch_shape = batch_shape
        return new

    def _get_checked_instance(self, cls: type, _instance: Any = None) -> Any:
        if _instance is None and type(self).__init__ != cls.__init__:
            raise NotImplementedError(f"Subclass {type(self).__name__} of {cls.__name__} that defines a custom "
                                      "__init__ method must also define a custom .expand() method.")
        return self.__new__(type(self)) if _instance is None else _instance

    @property
    def batch_shape(self) -> Any:
        return self._batch_shape

    @property
    def event_shape(self) -> Any:
        return self._event_shape

    @property
    def support(self) -> Any:
        raise NotImplementedError

    @property
    def mean(self) -> Any:
        raise NotImplementedError

    @property
    def mode(self) -> Any:
        raise NotImplementedError(f"{type(self)} does not implement mode")

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
        raise NotImplementedError(f"{type(self).__name__} has no reparameterized sampling (rsample); use sample()")

    def sample_n(self, n: int) -> Any:
        warnings.warn("sample_n will be deprecated. Use .sample((n,)) instead", UserWarning)
        return self.sample(torch.Size((n,)))

    def log_prob(self, value: Any) -> Any:
        raise NotImplementedError

    def cdf(self, value: Any) -> Any:
        raise NotImplementedError

    def icdf(self, value: Any) -> Any:
        raise NotImplementedError

    def enumerate_support(self, expand: bool = True) -> Any:
        raise NotImplementedError

    def entropy(self) -> Any:
        raise NotImplementedError

    def perplexity(self) -> Any:
        return torch.exp(self.entropy())

    def _extended_shape(self, sample_shape: Any = ()) -> Any:
        if not isinstance(sample_shape, torch.Size):
            sample_shape = torch.Size(sample_shape)
        return sample_shape + self._batch_shape + self._event_shape

    def _validate_sample(self, value: Any) -> None:
        """torch's checks of a value given to log_prob/cdf: a Tensor, right event shape, broadcastable to
        batch_shape + event_shape, inside `support`."""
        if not isinstance(value, torch.Tensor):
            raise ValueError("The value argument to log_prob must be a Tensor")
        event_dim_start = len(value.size()) - len(self._event_shape)
        if value.size()[event_dim_start:] != self._event_shape:
            raise ValueError(f"The right-most size of value must match event_shape: {value.size()} vs "
                             f"{self._event_shape}.")
        actual_shape = value.size()
        expected_shape = self._batch_shape + self._event_shape
        for i, j in zip(reversed(actual_shape), reversed(expected_shape)):
            if i != 1 and j != 1 and i != j:
                raise ValueError(f"Value is not broadcastable with batch_shape+event_shape: {actual_shape} vs "
                                 f"{expected_shape}.")
        try:
            support = self.support
        except NotImplementedError:
            warnings.warn(f"{self.__class__} does not define `support` to enable sample validation. Please "
                          "initialize the distribution with `validate_args=False` to turn off validation.")
            return
        if not bool(support.check(value).all()):
            raise ValueError(f"Expected value argument ({type(value).__name__} of shape {tuple(value.shape)}) to be "
                             f"within the support ({support!r}) of the distribution {self!r}, but found invalid "
                             f"values:\n{value}")

    def __repr__(self) -> str:
        names = [k for k in self.arg_constraints if k in self.__dict__]
        args = ", ".join(f"{k}: {self.__dict__[k] if self.__dict__[k].numel() == 1 else self.__dict__[k].size()}"
                         for k in names)
        return f"{type(self).__name__}({args})"
