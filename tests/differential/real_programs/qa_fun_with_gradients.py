"""PyTorch Forums, "Bit of fun with gradients": break the graph by copying y into a new
leaf _y (torch.tensor(y.detach(), requires_grad=True), which warns), backpropagate to
_y, then push _y.grad through the first half with y.backward(_y.grad).

Source: https://discuss.pytorch.org/t/bit-of-fun-with-gradients/34398
Adapted: the assert prints its condition.
"""
import torch

x = torch.ones(2, 2, requires_grad=True)
y = 2 * x + 2
z = y * y * 3
out = z.mean()
out.backward()
print(x.grad)
baseline_x = x.grad

x = torch.ones(2, 2, requires_grad=True)
y = 2 * x + 2
_y = torch.tensor(y.detach(), requires_grad=True)
z = _y * _y * 3
out = z.mean()
out.backward()
print(x.grad)
print(_y.grad)

y.backward(_y.grad)
print(x.grad)
x_from_manipulated_graph = x.grad
print(torch.eq(x_from_manipulated_graph, baseline_x).all())
