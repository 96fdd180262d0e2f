""""Trying to backward through the graph a second time" (the classic question and its
answers): the saved tensors are freed by the first backward; retain_graph=True keeps
them, and the gradients add up.

Source: https://discuss.pytorch.org/t/runtimeerror-trying-to-backward-through-the-graph-a-second-time-but-the-buffers-have-already-been-freed-specify-retain-graph-true-when-calling-backward-the-first-time/6795/2
Adapted: restated in a few lines.
"""
import torch

x = torch.tensor([1., 2.], requires_grad=True)
y = (x * x).sum()
y.backward()
try:
    y.backward()
except RuntimeError as error:
    print("RuntimeError:", error)

y = x.exp().sum()
y.backward(retain_graph=True)
y.backward()
print(x.grad)

z = x * 2        # a graph that saves nothing can be run twice
z.sum().backward()
z.sum().backward()
print(x.grad)
