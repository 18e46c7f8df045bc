// SPDX-License-Identifier: GPL-3.0-or-later
// The examples of docs/reference/model-language.md, checked against the compiler:
//   ```cfm           a complete model: compiles, and ten steps of a single cell stay finite;
//   ```cfm-error     a model that must not compile: the ```text block right after it holds
//                    the exact message (every diagnostic, file name "model.cfm");
//   ```cfm-fragment  part of a model, shown for reading only: skipped.
// Any other info string starting with "cfm" is a typo and fails, so no example is skipped
// by accident.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "sim/models/cardiac/lang/cell_program.hpp"
#include "sim/models/cardiac/lang/checked_model.hpp"

namespace {

using namespace cf::cardiac;

struct Block {
    std::string info;  // the fence's info string: "cfm", "text", ...
    std::string text;  // the lines between the fences, each ending with '\n'
    int line = 0;      // line of the opening fence in the Markdown file
};

std::vector<Block> fencedBlocks(const std::string& markdown) {
    std::vector<Block> blocks;
    std::istringstream in(markdown);
    std::string line;
    int number = 0;
    bool inside = false;
    Block current;
    while (std::getline(in, line)) {
        ++number;
        if (line.rfind("```", 0) != 0) {
            if (inside) current.text += line + "\n";
            continue;
        }
        if (inside) {
            blocks.push_back(current);
            inside = false;
        } else {
            current = Block{line.substr(3), "", number};
            inside = true;
        }
    }
    EXPECT_FALSE(inside) << "a fence opened at line " << current.line << " is not closed";
    return blocks;
}

std::string readDocument() {
    std::ifstream in(CELLFORGE_MODEL_LANGUAGE_MD, std::ios::binary);
    EXPECT_TRUE(in) << "cannot open " << CELLFORGE_MODEL_LANGUAGE_MD;
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

std::string where(const Block& b) {
    return std::string("model-language.md:") + std::to_string(b.line);
}

// Compiles, builds the CPU program (and its lookup table, if any) and takes ten steps. The
// block is preceded by as many blank lines as come before it in the page, so a message's
// line is the line in model-language.md.
void expectRuns(const Block& b) {
    SCOPED_TRACE(where(b));
    try {
        const std::string source = std::string(static_cast<std::size_t>(b.line), '\n') + b.text;
        CellProgram program(compileModel(source, "model-language.md"));
        std::vector<double> y = program.initialStates();
        for (int i = 0; i < 10; ++i)
            program.step(y, 0.01 * i, 0.01);
        for (std::size_t s = 0; s < y.size(); ++s)
            EXPECT_TRUE(std::isfinite(y[s])) << "state " << s << " is " << y[s];
    } catch (const cf::Error& e) {
        ADD_FAILURE() << "the example at " << where(b) << " does not compile:\n" << e.what();
    }
}

void expectError(const Block& b, const Block* expected) {
    SCOPED_TRACE(where(b));
    if (expected == nullptr || expected->info != "text") {
        ADD_FAILURE() << "the cfm-error block at " << where(b)
                      << " must be followed by a ```text block with its message";
        return;
    }
    try {
        compileModel(b.text, "model.cfm");
        ADD_FAILURE() << "the error example at " << where(b) << " compiles";
    } catch (const ModelError& e) {
        EXPECT_EQ(std::string(e.what()) + "\n", expected->text)
            << "the message documented at line " << expected->line << " is not the compiler's";
    }
}

TEST(DocsModelLanguage, EveryExampleCompilesAndEveryErrorReadsAsDocumented) {
    const std::vector<Block> blocks = fencedBlocks(readDocument());
    int complete = 0, errors = 0, fragments = 0;
    for (std::size_t i = 0; i < blocks.size(); ++i) {
        const Block& b = blocks[i];
        if (b.info == "cfm") {
            expectRuns(b);
            ++complete;
        } else if (b.info == "cfm-error") {
            expectError(b, i + 1 < blocks.size() ? &blocks[i + 1] : nullptr);
            ++errors;
        } else if (b.info == "cfm-fragment") {
            ++fragments;
        } else if (b.info.rfind("cfm", 0) == 0) {
            ADD_FAILURE() << "unknown block kind '```" << b.info << "' at " << where(b)
                          << " (cfm, cfm-error or cfm-fragment)";
        }
    }
    // The page documents every construct with examples: far more than these. A count below
    // means the blocks were not found (a changed fence style), not that all passed.
    EXPECT_GE(complete, 10);
    EXPECT_GE(errors, 8);
    std::printf("checked %d complete examples and %d error examples (%d fragments skipped)\n",
                complete, errors, fragments);
}

}  // namespace
