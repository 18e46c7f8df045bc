// SPDX-License-Identifier: GPL-3.0-or-later
#include "sim/core/snapshot.hpp"

namespace cf {

std::size_t sizeOf(ScalarType t) {
    switch (t) {
        case ScalarType::F32:
            return 4;
        case ScalarType::F64:
            return 8;
        case ScalarType::I32:
            return 4;
        case ScalarType::U32:
            return 4;
        case ScalarType::U64:
            return 8;
        case ScalarType::U8:
            return 1;
    }
    return 0;
}

const char* toString(ScalarType t) {
    switch (t) {
        case ScalarType::F32:
            return "f32";
        case ScalarType::F64:
            return "f64";
        case ScalarType::I32:
            return "i32";
        case ScalarType::U32:
            return "u32";
        case ScalarType::U64:
            return "u64";
        case ScalarType::U8:
            return "u8";
    }
    return "?";
}

const char* toString(FieldRole r) {
    switch (r) {
        case FieldRole::Positions:
            return "positions";
        case FieldRole::PerEntity:
            return "per_entity";
        case FieldRole::Grid:
            return "grid";
        case FieldRole::Internal:
            return "internal";
        case FieldRole::RestartOnly:
            return "restart_only";
    }
    return "?";
}

}  // namespace cf
