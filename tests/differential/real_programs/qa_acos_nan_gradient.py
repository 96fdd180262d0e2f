"""PyTorch Forums, "NaN gradient for torch.cos() / torch.acos()": cos(acos(x)) is x, but
its gradient at x = ±1 goes through -1 / sqrt(1 - x²) and becomes nan (or inf * 0).

Source: https://discuss.pytorch.org/t/nan-gradient-for-torch-cos-torch-acos/9617/2
Adapted: the answer's f and g at a few points.
"""
import torch

x = torch.tensor([-1.0, -0.5, 0.0, 0.5, 1.0], requires_grad=True)
f = torch.cos(torch.acos(x))
g = x
f.sum().backward()
print(f)
print(x.grad)
x.grad = None
g.sum().backward()
print(x.grad)
y = torch.tensor([0.999999, 1.0 - 1e-3], requires_grad=True)
torch.acos(y).sum().backward()
print(y.grad)
