"""Learning PyTorch with Examples, "PyTorch: optim": the polynomial's coefficients as
plain tensors (the tutorial's model, written without nn) fitted with torch.optim.RMSprop.

Source: https://pytorch.org/tutorials/beginner/examples_nn/polynomial_optim.html
        (pytorch/tutorials, beginner_source/examples_nn/polynomial_optim.py)
Adapted: the coefficients are four tensors (no nn.Linear); 300 steps.
"""
import math

import torch

x = torch.linspace(-math.pi, math.pi, 2000)
y = torch.sin(x)
coefficients = [torch.zeros((), requires_grad=True) for _ in range(4)]

learning_rate = 1e-3
optimizer = torch.optim.RMSprop(coefficients, lr=learning_rate)
for t in range(300):
    a, b, c, d = coefficients
    y_pred = a + b * x + c * x ** 2 + d * x ** 3
    loss = (y_pred - y).pow(2).sum()
    if t % 100 == 99:
        print(t, loss.item())
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
print([round(c.item(), 4) for c in coefficients])
