"""The seed's first fix: synchronize before the host reads the copy.

    temp = b.to('cpu', non_blocking=True); torch.cuda.synchronize(); a[:] = temp

The copy is still asynchronous (the host may do other work meanwhile), and
the read of temp comes after the synchronization that covers it. The check
is silent. Run (a GPU and PyTorch): python3 examples/seed_fixed_sync.py
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
        temp = b.to("cpu", non_blocking=True)
        torch.cuda.synchronize()
        a[:] = temp
        if not torch.equal(a, expected(iteration)):
            mismatches += 1
    print("iterations with stale data: %d of 3" % mismatches)


if __name__ == "__main__":
    main()
