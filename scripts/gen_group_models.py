"""Write the ContactGroup versions of the scale study's scenes (issue 30).

The scenes are those of the scale study (sphere pile: N spheres, r 5 cm, 0.1 kg, from a jittered
grid into four walls on a floor, Hunt-Crossley k = 1e4 N/m, D = 1 s/m, Stribeck mu = 0.5,
v_s = 1e-2 m/s; tower: N bricks 0.2 x 0.1 x 0.05 m, 0.5 kg, k = 1e5 N/m), with the same initial
positions (Python's random, seeded as the study seeds it), but with every contact in one
ContactGroup instead of one SpatialContactForce per pair.

  python3 scripts/gen_group_models.py --pile N [--walls|--no-walls] [--stop T] > pile.toml
  python3 scripts/gen_group_models.py --tower N > tower.toml
  python3 scripts/gen_group_models.py --pile N --no-walls --clusters C [--gap G] [--islands] > piles.toml
  python3 scripts/gen_group_models.py --pile N --rigid [--stop T] > rigid_pile.toml

--clusters C writes C copies of the pile, G m apart along x (default 10), in one group (issue 30
part 3's separate clusters); --stagger H raises copy c by c·H m (so that the copies land at
different times); --islands writes `islands = true` under [solver]. --rigid makes the group `contact = "rigid"`
(RIGID_CONTACT: restitution 0.5, Coulomb mu = 0.5) in place of the penalty law (issue 30's rigid
pile, which the mechanism's broad phase for rigid pairs is measured on).

models/sphere_pile.toml is --pile 64; models/box_tower.toml is --tower 8 (with comments added).
"""
import argparse
import math
import random

R, M, G, K, D, MU, VS, W = 0.05, 0.1, 9.81, 1e4, 1.0, 0.5, 1e-2, 0.3
SPACING, LAYER, Z_BOTTOM = 0.11, 0.12, 0.05 + 0.10
JITTER, ZJITTER = 0.15 * R, 0.2 * R
BRICK, BRICK_M, TOWER_K = (0.2, 0.1, 0.05), 0.5, 1e5
LAYOUT = {1: (1, 1, 1), 2: (2, 1, 1), 4: (2, 2, 1), 8: (2, 2, 2), 16: (2, 2, 4),
          32: (4, 4, 2), 64: (4, 4, 4), 128: (4, 4, 8), 256: (4, 4, 16),
          320: (4, 4, 20), 512: (4, 4, 32)}
WALLS = {
    "xp": ([W, 0.0, 0.0], (-math.pi / 2, "[0.0, 1.0, 0.0]")),
    "xm": ([-W, 0.0, 0.0], (math.pi / 2, "[0.0, 1.0, 0.0]")),
    "yp": ([0.0, W, 0.0], (math.pi / 2, "[1.0, 0.0, 0.0]")),
    "ym": ([0.0, -W, 0.0], (-math.pi / 2, "[1.0, 0.0, 0.0]")),
}
FRICTION = ('friction = { method = "stribeck", static = %r, dynamic = %r, stiction_velocity = %r }'
            % (MU, MU, VS))


RIGID_CONTACT = ('contact = "rigid"\nrestitution = 0.5\n'
                 'friction = { method = "coulomb", coefficient = %r }' % MU)


def law(k):
    return ('normal = { method = "hunt_crossley", stiffness = %r, damping = %r, exponent = 1.0, '
            'velocity_exponent = 1.0, depth_exponent = 1.0 }' % (k, k * D))


def positions(n):
    """The scale study's initial centres (scene.py's positions(), same seed)."""
    nx, ny, nz = LAYOUT[n]
    rng = random.Random(12345 + n)
    out = []
    for k in range(nz):
        for j in range(ny):
            for i in range(nx):
                x = (i - (nx - 1) / 2) * SPACING + rng.uniform(-JITTER, JITTER)
                y = (j - (ny - 1) / 2) * SPACING + rng.uniform(-JITTER, JITTER)
                z = Z_BOTTOM + k * LAYER + rng.uniform(0.0, ZJITTER)
                out.append((x, y, z))
    return out


def header(connect, name, stop, log):
    lines = ["connect = ["] + ['  "%s",' % c for c in connect] + ["]", "",
             "[model]", 'name = "%s"' % name, "stop_time = %r" % stop, "",
             "[solver]", "rel_tol = 1e-4", "abs_tol = 1e-6", "",
             "[output]", "log = [%s]" % ", ".join('"%s"' % l for l in log), "sample_time = 0.05", "",
             "[blocks.world]", 'type = "WorldFrame"', "",
             "[blocks.config]", 'type = "MechanismConfiguration"', "gravity = [0.0, 0.0, %r]" % -G, "",
             "[blocks.floor]", 'type = "InfinitePlane"', ""]
    return lines


def pile(n, walls, stop, clusters=1, gap=10.0, stagger=0.0, rigid=False):
    connect = ["world.W -- floor.R", "pile.active_pairs -> contacts.in1"]
    blocks = []
    if walls:
        for w, (t, (angle, axis)) in WALLS.items():
            connect += ["world.W -- wt_%s.B" % w, "wt_%s.F -- wall_%s.R" % (w, w)]
            blocks += ["[blocks.wt_%s]" % w, 'type = "RigidTransform"', "translation = %r" % t,
                       "rotation = { axis = %s, angle = %r }" % (axis, angle), "",
                       "[blocks.wall_%s]" % w, 'type = "InfinitePlane"', ""]
    centres = [(x + c * gap, y, z + c * stagger) for c in range(clusters) for (x, y, z) in positions(n)]
    for i, (x, y, z) in enumerate(centres):
        connect += ["world.W -- free%d.B" % i, "free%d.F -- ball%d.R" % (i, i)]
        blocks += ["[blocks.free%d]" % i, 'type = "SixDofJoint"', "position = [%r, %r, %r]" % (x, y, z), "",
                   "[blocks.ball%d]" % i, 'type = "Solid"',
                   'geometry = { shape = "sphere", radius = %r }' % R, "mass = %r" % M, ""]
    members = '["ball*", "floor"%s]' % (', "wall_*"' if walls else "")
    contact = [RIGID_CONTACT] if rigid else [law(K), FRICTION]
    blocks += ["[blocks.pile]", 'type = "ContactGroup"', "members = %s" % members] + contact + ["",
               "[blocks.contacts]", 'type = "Scope"', "inputs = 1", ""]
    log = ["free%d.p" % i for i in range(n * clusters)]
    return header(connect, "sphere_pile_%d" % n, stop, log) + blocks


def tower(n, stop):
    lx, ly, lz = BRICK
    connect = ["world.W -- floor.R", "stack.active_pairs -> contacts.in1"]
    blocks = []
    for i in range(n):
        z = lz / 2 + i * (lz + 1e-4) + 1e-4
        x, yaw = 0.002 * (i % 2), 0.05 * i
        q = [math.cos(yaw / 2), 0.0, 0.0, math.sin(yaw / 2)]
        connect += ["world.W -- free%d.B" % i, "free%d.F -- brick%d.R" % (i, i)]
        blocks += ["[blocks.free%d]" % i, 'type = "SixDofJoint"', "position = [%r, %r, %r]" % (x, 0.0, z),
                   "orientation = [%r, %r, %r, %r]" % tuple(q), "",
                   "[blocks.brick%d]" % i, 'type = "Solid"',
                   'geometry = { shape = "brick", size = [%r, %r, %r] }' % (lx, ly, lz), "mass = %r" % BRICK_M, ""]
    blocks += ["[blocks.stack]", 'type = "ContactGroup"', 'members = ["floor", "brick*"]', law(TOWER_K),
               FRICTION, "", "[blocks.contacts]", 'type = "Scope"', "inputs = 1", ""]
    log = ["free%d.p" % i for i in range(n)]
    return header(connect, "box_tower_%d" % n, stop, log) + blocks


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--pile", type=int)
    ap.add_argument("--tower", type=int)
    ap.add_argument("--no-walls", action="store_true")
    ap.add_argument("--stop", type=float, default=2.0)
    ap.add_argument("--clusters", type=int, default=1)
    ap.add_argument("--gap", type=float, default=10.0)
    ap.add_argument("--stagger", type=float, default=0.0)
    ap.add_argument("--islands", action="store_true")
    ap.add_argument("--rigid", action="store_true")
    a = ap.parse_args()
    if a.clusters > 1 and not a.no_walls:
        ap.error("--clusters needs --no-walls (the walls are infinite planes: they would cut the other clusters)")
    if a.pile:
        lines = pile(a.pile, not a.no_walls, a.stop, a.clusters, a.gap, a.stagger, a.rigid)
        if a.islands:
            lines.insert(lines.index("[solver]") + 1, "islands = true")
        print("\n".join(lines))
    if a.tower:
        print("\n".join(tower(a.tower, a.stop)))


if __name__ == "__main__":
    main()
