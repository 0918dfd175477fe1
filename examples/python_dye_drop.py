import matplotlib.pyplot as plt
import vortonfx

sim = vortonfx.Simulation.preset("dye_drop")  # a ball of heavy dyed fluid: 4,096 vortons, 65,536 tracers
sim.step(1 / 30, steps=36)  # 1.2 s at 30 frames a second
x, y, z = sim.tracers.position.T  # read-only NumPy views of the simulation's memory
near = abs(z) < 0.05  # the tracers in a 10 cm slice through the middle
plt.scatter(x[near], y[near], s=1, c="tab:blue", alpha=0.4)
plt.gca().set(aspect="equal", xlabel="x (m)", ylabel="y (m)", title=f"Dye drop at t = {sim.time:.1f} s")
plt.savefig("dye_drop.png", dpi=120)
