"""Balance the cart-pole (models/cart_pole.toml) with an LQR designed from its linearization.

1. Linearize the model about the upright (hinge.q0 = 0) with the controller off, from the force
   on the cart (input rail.t) -- what `blockdyn linearize` prints:
       blockdyn linearize models/cart_pole.toml --inputs rail.t --outputs rail.q,hinge.q \
           --set hinge.q0=0 --set 'controller.gain=[[0,0,0,0]]'
2. Solve the continuous algebraic Riccati equation  AᵀP + PA − PBR⁻¹BᵀP + Q = 0  with numpy
   alone, from the stable invariant subspace of the Hamiltonian [[A, −BR⁻¹Bᵀ], [−Q, −Aᵀ]]
   (P = U₂·U₁⁻¹ for its eigenvectors [U₁; U₂] of eigenvalues with negative real part), and
   K = R⁻¹BᵀP: u = −K·z minimises ∫ zᵀQz + uᵀRu.
3. Write −K into the controller (a Gain on the Mux of [x, q, ẋ, q̇]), simulate from the pole
   0.2 rad off the upright, and check that it is balanced: the pole back within 1e-3 rad of the
   upright and the cart back near x = 0 at the end, the closed loop's eigenvalues all stable.

Run from the repository root: python examples/python/cart_pole_lqr.py
Prints the gain as a --set option for `blockdyn run models/cart_pole.toml`.
"""

import pathlib
import sys

import numpy as np

import blockdyn

MODEL = pathlib.Path(__file__).resolve().parents[2] / "models" / "cart_pole.toml"
#: The controller's input, in the order of the model's Mux: [x, q, ẋ, q̇].
MUX_ORDER = ["rail.q[0]", "hinge.q[0]", "rail.v[0]", "hinge.v[0]"]
#: Weights of the cost ∫ zᵀQz + uᵀRu (z in MUX_ORDER): the pole angle most, then the cart.
Q = np.diag([10.0, 100.0, 1.0, 1.0])
R = np.array([[1.0]])


def care(a, b, q, r):
    """The stabilising solution P of AᵀP + PA − PBR⁻¹BᵀP + Q = 0 (Hamiltonian eigenvectors)."""
    n = a.shape[0]
    r_inv = np.linalg.inv(r)
    hamiltonian = np.block([[a, -b @ r_inv @ b.T], [-q, -a.T]])
    values, vectors = np.linalg.eig(hamiltonian)
    stable = vectors[:, values.real < 0]
    if stable.shape[1] != n:
        raise RuntimeError("the Hamiltonian has eigenvalues on the imaginary axis: no LQR")
    p = np.real(stable[n:, :] @ np.linalg.inv(stable[:n, :]))
    return (p + p.T) / 2


def main():
    plant = blockdyn.load(MODEL, set={"hinge.q0": 0.0, "controller.gain": [[0.0] * 4]})
    lin = blockdyn.linearize(plant, inputs=["rail.t"], outputs=["rail.q", "hinge.q"])
    # The linearization's states in the Mux's order (they are named, so no order is assumed).
    order = [lin["states"].index(name) for name in MUX_ORDER]
    a = lin["A"][np.ix_(order, order)]
    b = lin["B"][order, :]
    print("A =\n", a, "\nB =\n", b)
    p = care(a, b, Q, R)
    residual = a.T @ p + p @ a - p @ b @ np.linalg.inv(R) @ b.T @ p + Q
    assert np.abs(residual).max() < 1e-8 * np.abs(p).max(), residual
    k = np.linalg.inv(R) @ b.T @ p
    poles = np.linalg.eigvals(a - b @ k)
    print("K =", k[0], "\nclosed-loop eigenvalues:", np.sort_complex(poles))
    assert (poles.real < 0).all()

    gain = [[float(-v) for v in k[0]]]
    print("blockdyn run models/cart_pole.toml --set 'controller.gain=%s'" % gain)
    controlled = blockdyn.load(MODEL, set={"controller.gain": gain})
    run = controlled.simulate()
    q = run["hinge.q"]
    x = run["rail.q"]
    print(
        "pole: %.3f rad at the start, largest %.3f rad, %.2e rad at t = %g s; cart at x = %.2e m"
        % (q[0], np.abs(q).max(), q[-1], run.time[-1], x[-1])
    )
    balanced = abs(q[-1]) < 1e-3 and abs(x[-1]) < 1e-2 and np.abs(q).max() < 0.5
    print("balanced" if balanced else "NOT balanced")
    return 0 if balanced else 1


if __name__ == "__main__":
    sys.exit(main())
