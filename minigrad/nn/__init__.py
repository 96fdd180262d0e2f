"""minigrad.nn: `functional` - the losses and activations PyTorch's autograd tutorials
call - and `Parameter`.  Layers (`nn.Linear`, `nn.Module`) and optimizers are outside
minigrad's scope: it teaches autograd, and writes its models with plain tensors."""
from . import functional, parameter
from .parameter import Parameter

__all__ = ["functional", "Parameter"]
