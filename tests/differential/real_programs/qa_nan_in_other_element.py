""""PyTorch backward() on a tensor element affected by nan in other elements" (the
question and its answer): writing x * y / y (nan) and x + y into two elements of one
tensor, then backpropagating from the second, gives nan gradients -- the first element's
backward still runs and multiplies its zero gradient by inf.

Source: https://whosebug.com/question/5957504/PyTorch-backward-on-a-tensor-element-affected-by-nan-in-other-elements
        (a mirror of the Stack Overflow question)
Adapted: the comments' values are printed.
"""
import torch

x = torch.tensor(1., requires_grad=True)
y = torch.tensor(0., requires_grad=True)
z = torch.full((2, ), float("nan"))
z0 = x * y / y
z1 = x + y
print(z0, z1)  # tensor(nan, grad_fn=<DivBackward0>) tensor(1., grad_fn=<AddBackward0>)
z1.backward()
print(x.grad)  # tensor(1.)

x = torch.tensor(1., requires_grad=True)
y = torch.tensor(0., requires_grad=True)
z = torch.full((2, ), float("nan"))
z[0] = x * y / y
z[1] = x + y
print(z)  # tensor([nan, 1.], grad_fn=<CopySlices>)
z[1].backward()
print(x.grad)  # tensor(nan)
