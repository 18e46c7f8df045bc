# SPDX-License-Identifier: GPL-3.0-or-later
# sim/run: the Runner's commands, live edits, observers, save and load, the speed limit, and
# the ViewExchange.
cellforge_add_test(test_run SOURCES
  sim/run/test_runner.cpp
  sim/run/test_view_exchange.cpp)
# The Runner from the window's three threads at once (run under ThreadSanitizer by the
# `tsan` preset).
cellforge_add_test(test_runner_threads CPU_ONLY SOURCES sim/run/test_runner_threads.cpp)
