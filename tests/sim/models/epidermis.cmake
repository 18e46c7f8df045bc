# SPDX-License-Identifier: GPL-3.0-or-later
cellforge_add_test(test_epidermis SOURCES
  sim/models/test_epidermis.cpp
  sim/models/test_epidermis_network.cpp
  sim/models/test_epidermis_run.cpp
  sim/models/test_epidermis_views.cpp
  sim/models/test_epidermis_live_edit.cpp
  sim/models/test_epidermis_layers.cpp)
# 130,000 steps of the full model: its only case runs on CUDA (label gpu).
cellforge_add_test(test_epidermis_validation GPU_ONLY SOURCES sim/models/test_epidermis_validation.cpp)
