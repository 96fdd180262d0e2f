"""How to compute a Jacobian matrix in PyTorch (a how-to answer): one backward per
output with retain_graph=True, x.grad reset to None before each, rows copied with
clone().

Source: https://www.iditect.com/programming/python-example/jacobian-matrix-in-pytorch.html
Adapted: f builds its output with torch.stack (the answer's torch.tensor([...]) of
tensors cuts the graph, so its backward fails; that line is kept and its error printed).
"""
import torch


def f_broken(x):
    return torch.tensor([x[0]**2 + x[1]**2, x[0]**3 - x[1]])


def f(x):
    return torch.stack([x[0]**2 + x[1]**2, x[0]**3 - x[1]])


x = torch.tensor([1.0, 2.0], requires_grad=True)
y = f_broken(x)
try:
    y[0].backward()
except RuntimeError as error:
    print("RuntimeError:", error)

y = f(x)
jacobian = torch.zeros((len(y), len(x)))
for i in range(len(y)):
    x.grad = None
    y[i].backward(retain_graph=True)
    jacobian[i] = x.grad.clone()
print(jacobian)
