"""Write a model of N spheres in one ContactGroup, to measure the group's build (issue 30).

N spheres (r 5 cm, 0.1 kg), each on a free joint, on a 10 x 10 grid 0.2 m apart in layers of
100, over a floor, all of them and the floor in one ContactGroup: benches/contact_group.rs's
thousand() and tests/group_build_memory.rs's spheres() at N. Stop time 1 ms (a build measure).

  python3 scripts/gen_sphere_group.py N > group.toml
  valgrind --tool=callgrind blockdyn check group.toml > /dev/null
"""
import sys

n = int(sys.argv[1])
connect = ['"world.W -- floor.R"']
blocks = []
for k in range(n):
    x, y, z = (k % 10) * 0.2, ((k // 10) % 10) * 0.2, 0.1 + (k // 100) * 0.2
    connect.append(f'"world.W -- free{k}.B", "free{k}.F -- ball{k}.R"')
    blocks.append(f'[blocks.free{k}]\ntype = "SixDofJoint"\nposition = [{x}, {y}, {z}]\n'
                  f'[blocks.ball{k}]\ntype = "Solid"\n'
                  f'geometry = {{ shape = "sphere", radius = 0.05 }}\nmass = 0.1\n')
print('connect = [%s]\n[model]\nname = "g%d"\nstop_time = 0.001\n[blocks.world]\n'
      'type = "WorldFrame"\n[blocks.floor]\ntype = "InfinitePlane"\n[blocks.group]\n'
      'type = "ContactGroup"\nmembers = ["ball*", "floor"]\n%s'
      % (", ".join(connect), n, "".join(blocks)))
