"""The seed of this project, in the PyTorch Python its users write:

    a[:] = b.to('cpu', non_blocking=True); torch.cuda.synchronize()

b.to('cpu', non_blocking=True) enqueues the device-to-host copy into a new
pinned tensor on the current stream and returns at once; `a[:] = ...` then
copies that tensor into a on the host while the copy may still be in flight.
torch.cuda.synchronize() comes one statement too late: some iterations see
stale data (2 of 3 on an H200). The check warns at `a[:] = ...`:

    cuda-async-read-before-sync examples/seed_race.py

Run (a GPU and PyTorch): python3 examples/seed_race.py
The fixes: seed_fixed_sync.py, seed_fixed_side_stream.py.
"""
import torch

ROWS, COLS, DEPTH = 13223, 134, 4


def model_step(b, w, pattern, iteration):
    """Keeps the GPU busy for some milliseconds, then writes b."""
    h = w @ w
    for _ in range(3):
        h = h @ w
    b.copy_(pattern + iteration)


def expected(iteration):
    return ((torch.arange(ROWS * COLS * DEPTH) % 251 + iteration)
            .float().reshape(ROWS, COLS, DEPTH))


def main():
    w = torch.randn(8192, 8192, device="cuda", dtype=torch.bfloat16) * 0.01
    pattern = (torch.arange(ROWS * COLS * DEPTH, device="cuda") % 251).to(
        torch.bfloat16).reshape(ROWS, COLS, DEPTH)
    b = torch.empty(ROWS, COLS, DEPTH, device="cuda", dtype=torch.bfloat16)
    a = torch.empty(ROWS, COLS, DEPTH)  # float32, CPU
    mismatches = 0
    for iteration in range(3):
        model_step(b, w, pattern, iteration)
        a[:] = b.to("cpu", non_blocking=True)
        torch.cuda.synchronize()
        if not torch.equal(a, expected(iteration)):
            mismatches += 1
    print("iterations with stale data: %d of 3" % mismatches)


if __name__ == "__main__":
    main()
