"""Serving a class from one small server: the budget, what each step costs, and who may spend it.

* ``budget``: the server's memory and the time one training run may take, in one place;
* ``costs``: what a text and a step cost in memory, the models the governor reserves by;
* ``memory_governor``: one memory budget for the whole server, reserved before each heavy step;
* ``lru``: a least-recently-used cache bounded in bytes, shared by every session;
* ``generator_jump``: torch's generator after n draws without drawing them, so that a page draws only
  the rows of a big token table it shows.
"""
