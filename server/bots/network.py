"""A small neural network in numpy: the learned player's evaluation of an afterstate.

Two hidden layers of ``tanh`` units and one output: the round's expected
outcome for the mover, in points (its final round score less the others'
mean, the closer's doubling included; lower is better). The output corrects a
*prior*, the difference of two features: the expert model's price of the
mover's tableau less the others' expected scores (``afterstate.PRIOR``). A
card's points then count from the start, and where the games taught little (a
move nobody played) the correction stays small. The inputs are standardized
by the training set's mean and spread, kept with the weights. Trained by
hand-written backpropagation with Adam on the squared error; a whole
decision's afterstates go through ``value`` in one call.
"""

from __future__ import annotations

import itertools
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

Floats = NDArray[np.float64]

#: The hidden layers' widths.
HIDDEN = (32, 16)
#: Targets are divided by this before training (points a round), so that the
#: output layer works near unit scale.
SCALE = 10.0


@dataclass(slots=True)
class Network:
    """Weights, input standardization and (while training) Adam's moments."""

    weights: list[Floats]  # W1, b1, W2, b2, W3, b3
    used: NDArray[np.int64]  # which of the features are inputs
    prior: tuple[int, int] | None  # the features whose difference the network corrects
    shift: Floats  # the inputs' mean
    spread: Floats  # the inputs' standard deviation (never 0)
    record: dict[str, Any] = field(default_factory=dict)  # how these weights were made
    moments: list[Floats] = field(default_factory=list)  # Adam's first, then second, moments
    steps: int = 0

    @classmethod
    def fresh(
        cls,
        features: int,
        rng: np.random.Generator,
        unused: frozenset[int] = frozenset(),
        hidden: tuple[int, int] = HIDDEN,
        prior: tuple[int, int] | None = None,
    ) -> Network:
        used = np.array([i for i in range(features) if i not in unused], dtype=np.int64)
        inputs = len(used)
        sizes = (inputs, *hidden, 1)
        weights: list[Floats] = []
        for fan_in, fan_out in itertools.pairwise(sizes):
            weights.append(rng.normal(0.0, 1.0 / np.sqrt(fan_in), (fan_in, fan_out)))
            weights.append(np.zeros(fan_out))
        return cls(weights, used, prior, np.zeros(inputs), np.ones(inputs))

    @property
    def size(self) -> int:
        return sum(w.size for w in self.weights)

    def standardize_on(self, features: Floats) -> None:
        inputs = features[:, self.used]
        self.shift = inputs.mean(axis=0)
        self.spread = np.maximum(inputs.std(axis=0), 1e-3)

    def _inputs(self, features: Floats) -> Floats:
        return (features[:, self.used] - self.shift) / self.spread

    def _prior(self, features: Floats) -> Floats:
        if self.prior is None:
            return np.zeros(len(features))
        return features[:, self.prior[0]] - features[:, self.prior[1]]

    def value(self, features: Floats) -> Floats:
        """The expected outcome in points of each row of ``features`` (N, features)."""
        out = self._forward(self._inputs(features))[-1][:, 0]
        return (out + self._prior(features)) * SCALE

    def _forward(self, x: Floats) -> list[Floats]:
        w1, b1, w2, b2, w3, b3 = self.weights
        h1 = np.tanh(x @ w1 + b1)
        h2 = np.tanh(h1 @ w2 + b2)
        return [x, h1, h2, h2 @ w3 + b3]

    def loss(self, inputs: Floats, targets: Floats) -> float:
        """Mean squared error, in scaled points squared."""
        error = self.value(inputs) / SCALE - targets / SCALE
        return float(np.mean(error**2))

    def train_step(
        self, inputs: Floats, targets: Floats, rate: float = 1e-3, decay: float = 1e-5
    ) -> float:
        """One Adam step on a minibatch; its loss before the step."""
        x, h1, h2, out = self._forward(self._inputs(inputs))
        error = out[:, 0] + self._prior(inputs) - targets / SCALE
        n = len(error)
        w1, _, w2, _, w3, _ = self.weights
        d_out = (2.0 / n) * error[:, None]
        g_w3, g_b3 = h2.T @ d_out, d_out.sum(axis=0)
        d_h2 = (d_out @ w3.T) * (1.0 - h2**2)
        g_w2, g_b2 = h1.T @ d_h2, d_h2.sum(axis=0)
        d_h1 = (d_h2 @ w2.T) * (1.0 - h1**2)
        g_w1, g_b1 = x.T @ d_h1, d_h1.sum(axis=0)
        grads = [g_w1 + decay * w1, g_b1, g_w2 + decay * w2, g_b2, g_w3 + decay * w3, g_b3]
        self._adam(grads, rate)
        return float(np.mean(error**2))

    def _adam(self, grads: list[Floats], rate: float) -> None:
        beta1, beta2, eps = 0.9, 0.999, 1e-8
        if not self.moments:
            self.moments = [np.zeros_like(w) for _ in range(2) for w in self.weights]
        self.steps += 1
        count = len(self.weights)
        for i, grad in enumerate(grads):
            m, v = self.moments[i], self.moments[count + i]
            m *= beta1
            m += (1 - beta1) * grad
            v *= beta2
            v += (1 - beta2) * grad**2
            m_hat = m / (1 - beta1**self.steps)
            v_hat = v / (1 - beta2**self.steps)
            self.weights[i] -= rate * m_hat / (np.sqrt(v_hat) + eps)

    def save(self, path: Path, with_moments: bool = False) -> None:
        """Write the weights (and, for a checkpoint, Adam's state) to ``path`` (.npz)."""
        arrays: dict[str, np.ndarray] = {f"w{i}": w for i, w in enumerate(self.weights)}
        arrays |= {"used": self.used, "prior": np.array(self.prior or (-1, -1))}
        arrays |= {"shift": self.shift, "spread": self.spread}
        if with_moments and self.moments:
            arrays |= {f"m{i}": m for i, m in enumerate(self.moments)}
            arrays["steps"] = np.array(self.steps)
        arrays["record"] = np.array(json.dumps(self.record, sort_keys=True))
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("wb") as file:
            np.savez_compressed(file, **arrays)  # type: ignore[arg-type]

    @classmethod
    def load(cls, path: Path) -> Network:
        with np.load(path) as data:
            weights = [data[f"w{i}"] for i in range(6)]
            moments = [data[f"m{i}"] for i in range(12)] if "m0" in data else []
            steps = int(data["steps"]) if "steps" in data else 0
            record = json.loads(str(data["record"])) if "record" in data else {}
            used, pair = data["used"], tuple(int(i) for i in data["prior"])
            prior = None if pair[0] < 0 else (pair[0], pair[1])
            return cls(weights, used, prior, data["shift"], data["spread"], record, moments, steps)
