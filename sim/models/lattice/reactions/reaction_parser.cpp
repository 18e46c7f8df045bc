// SPDX-License-Identifier: GPL-3.0-or-later
// The text form of a `lattice` reaction network (parseReactionNetwork) and back
// (formatReactionNetwork). Grammar and messages: reaction_network.hpp.
#include <charconv>
#include <cmath>
#include <string>

#include "sim/core/errors.hpp"
#include "sim/models/lattice/reactions/reaction_network.hpp"

namespace cf::lattice {

namespace {

bool isBlank(char c) {
    return c == ' ' || c == '\t' || c == '\r';
}

// A half-open range [begin, end) of offsets into the whole text, so every message can say
// where in the text it points.
struct Span {
    std::size_t begin;
    std::size_t end;
};

class NetworkParser {
public:
    NetworkParser(std::string_view text, const std::vector<std::string>& names,
                  const std::string& source)
        : text_(text), names_(names), source_(source) {
        multiline_ = text.find('\n') != std::string_view::npos;
        net_.species = names;
    }

    ReactionNetwork run() {
        std::size_t lineBegin = 0;
        while (lineBegin <= text_.size()) {
            std::size_t lineEnd = text_.find('\n', lineBegin);
            if (lineEnd == std::string_view::npos) lineEnd = text_.size();
            std::size_t contentEnd = text_.find('#', lineBegin);
            if (contentEnd == std::string_view::npos || contentEnd > lineEnd) contentEnd = lineEnd;
            std::size_t pieceBegin = lineBegin;
            while (pieceBegin <= contentEnd) {
                std::size_t pieceEnd = text_.find(';', pieceBegin);
                if (pieceEnd == std::string_view::npos || pieceEnd > contentEnd)
                    pieceEnd = contentEnd;
                const Span piece = trim({pieceBegin, pieceEnd});
                if (piece.begin < piece.end) {
                    ++number_;
                    parseReaction(piece);
                }
                pieceBegin = pieceEnd + 1;
            }
            lineBegin = lineEnd + 1;
        }
        return std::move(net_);
    }

private:
    [[noreturn]] void fail(std::size_t pos, const std::string& what) const {
        std::size_t line = 1, lineStart = 0;
        for (std::size_t k = 0; k < pos && k < text_.size(); ++k)
            if (text_[k] == '\n') {
                ++line;
                lineStart = k + 1;
            }
        std::string where = "column " + std::to_string(pos - lineStart + 1);
        if (multiline_) where = "line " + std::to_string(line) + ", " + where;
        throw ParameterError(source_ + ": reaction " + std::to_string(number_) + " (" + where +
                             "): " + what);
    }

    Span trim(Span s) const {
        while (s.begin < s.end && isBlank(text_[s.begin]))
            ++s.begin;
        while (s.end > s.begin && isBlank(text_[s.end - 1]))
            --s.end;
        return s;
    }
    std::string_view view(Span s) const { return text_.substr(s.begin, s.end - s.begin); }
    std::size_t find(std::string_view what, Span s) const {
        const std::size_t p = view(s).find(what);
        return p == std::string_view::npos ? std::string_view::npos : s.begin + p;
    }

    std::string knownSpecies() const {
        if (names_.empty()) return "no species are declared";
        std::string list = "known species: ";
        for (std::size_t k = 0; k < names_.size(); ++k)
            list += (k ? ", " : "") + names_[k];
        return list;
    }

    int speciesId(std::string_view name) const {
        for (std::size_t k = 0; k < names_.size(); ++k)
            if (names_[k] == name) return static_cast<int>(k) + 1;
        return 0;
    }

    // One side of the arrow: "0" or empty for none, else terms joined by '+'.
    std::vector<int> parseSide(Span side, bool reactants) {
        // Reactants are counted as they come; products by the table's rule (productSlots) once
        // the side is read (coefficients have at most 3 digits, so the list stays short).
        std::vector<int> ids;
        side = trim(side);
        if (side.begin == side.end || view(side) == "0") return ids;
        std::size_t termBegin = side.begin;
        while (termBegin <= side.end) {
            std::size_t termEnd = find("+", {termBegin, side.end});
            if (termEnd == std::string_view::npos) termEnd = side.end;
            const Span term = trim({termBegin, termEnd});
            if (term.begin == term.end)
                fail(term.begin, termEnd < side.end ? "expected a species before '+'"
                                                    : "expected a species after '+'");
            int coefficient = 1;
            int id = speciesId(view(term));
            Span name = term;
            if (id == 0 && text_[term.begin] >= '0' && text_[term.begin] <= '9') {
                std::size_t digitsEnd = term.begin;
                while (digitsEnd < term.end && text_[digitsEnd] >= '0' && text_[digitsEnd] <= '9')
                    ++digitsEnd;
                const std::string_view digits = view({term.begin, digitsEnd});
                if (digits.size() > 3)
                    fail(term.begin, "coefficient " + std::string(digits) + " is too large");
                coefficient = std::stoi(std::string(digits));
                name = trim({digitsEnd, term.end});
                if (name.begin == name.end)
                    fail(term.begin, "expected a species after the coefficient " +
                                         std::string(digits) + " ('0' alone means none)");
                if (coefficient == 0)
                    fail(term.begin, "coefficient 0: leave the species out (or write 0 for none)");
                id = speciesId(view(name));
            }
            if (id == 0)
                fail(name.begin,
                     "unknown species '" + std::string(view(name)) + "' (" + knownSpecies() + ")");
            for (int c = 0; c < coefficient; ++c)
                ids.push_back(id);
            if (reactants && ids.size() > static_cast<std::size_t>(kMaxReactants))
                fail(side.begin, "order " + std::to_string(ids.size()) +
                                     " is not supported: at most 2 reactants (zeroth, first and "
                                     "second order reactions)");
            termBegin = termEnd + 1;
        }
        if (!reactants)
            if (const std::string problem = productSlots(ids).problem; !problem.empty())
                fail(side.begin, problem);
        return ids;
    }

    double parseRate(Span token) const {
        const std::string_view t = view(token);
        double v = 0.0;
        const auto [ptr, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
        if (ec != std::errc() || ptr != t.data() + t.size())
            fail(token.begin, "expected a rate (a number) after '@', got '" + std::string(t) + "'");
        if (!std::isfinite(v)) fail(token.begin, "the rate must be finite, got " + std::string(t));
        if (v < 0.0) fail(token.begin, "negative rate " + std::string(t) + ": rates are >= 0");
        return v;
    }

    std::uint32_t parseSiteTypes(Span list) const {
        const std::string known = "known: cytoplasm, membrane, outside";
        std::uint32_t mask = 0;
        std::size_t p = list.begin;
        while (true) {
            while (p < list.end && (isBlank(text_[p]) || text_[p] == ','))
                ++p;
            if (p >= list.end) break;
            std::size_t e = p;
            while (e < list.end && !isBlank(text_[e]) && text_[e] != ',')
                ++e;
            const std::string name(view({p, e}));
            const int type = siteTypeByName(name);
            if (type < 0) fail(p, "unknown site type '" + name + "' (" + known + ")");
            if (type == kSiteObstacle)
                fail(p, "reactions cannot happen in obstacle sites (they hold no particles)");
            mask |= siteTypeBit(static_cast<std::uint32_t>(type));
            p = e;
        }
        if (mask == 0) fail(list.begin, "expected site types after 'in' (" + known + ")");
        return mask;
    }

    void parseReaction(Span s) {
        if (net_.reactions.size() >= static_cast<std::size_t>(kMaxReactions))
            fail(s.begin, "more than " + std::to_string(kMaxReactions) +
                              " reactions (the most the lattice model runs)");
        Reaction r;
        const std::size_t arrow = find("->", s);
        const std::size_t colon = find(":", s);
        if (colon != std::string_view::npos && (arrow == std::string_view::npos || colon < arrow)) {
            const Span label = trim({s.begin, colon});
            if (label.begin == label.end) fail(colon, "expected a label before ':'");
            r.label = std::string(view(label));
            s = trim({colon + 1, s.end});
        }
        if (arrow == std::string_view::npos)
            fail(s.begin, "expected '->' between the reactants and the products");
        if (arrow > s.begin && text_[arrow - 1] == '<')
            fail(arrow - 1, "'<->' is not supported: write each direction as its own reaction");
        if (find("->", {arrow + 2, s.end}) != std::string_view::npos)
            fail(find("->", {arrow + 2, s.end}), "more than one '->'");
        const std::size_t at = find("@", {arrow + 2, s.end});
        if (at == std::string_view::npos)
            fail(s.end, "missing rate: expected '@ <rate>' after the products");
        r.reactants = parseSide({s.begin, arrow}, true);
        r.products = parseSide({arrow + 2, at}, false);

        const Span tail = trim({at + 1, s.end});
        if (tail.begin == tail.end) fail(at, "missing rate: expected a number after '@'");
        std::size_t tokenEnd = tail.begin;
        while (tokenEnd < tail.end && !isBlank(text_[tokenEnd]))
            ++tokenEnd;
        r.rate = parseRate({tail.begin, tokenEnd});
        const Span rest = trim({tokenEnd, tail.end});
        if (rest.begin < rest.end) {
            const std::string_view v = view(rest);
            if (v.substr(0, 2) != "in" || (v.size() > 2 && !isBlank(v[2])))
                fail(rest.begin, "unexpected '" + std::string(v) +
                                     "' after the rate: expected 'in <site types>' or the end "
                                     "of the reaction");
            r.siteMask = parseSiteTypes({rest.begin + 2, rest.end});
        }
        if (r.label.empty()) r.label = reactionText(net_, r);
        net_.reactions.push_back(std::move(r));
    }

    std::string_view text_;
    const std::vector<std::string>& names_;
    const std::string& source_;
    bool multiline_ = false;
    int number_ = 0;  // the reaction being parsed, 1-based
    ReactionNetwork net_;
};

std::string sideText(const ReactionNetwork& net, const std::vector<int>& ids) {
    if (ids.empty()) return "0";
    std::string s;
    for (std::size_t k = 0; k < ids.size(); ++k) {
        const int id = ids[k];
        const bool known = id >= 1 && static_cast<std::size_t>(id) <= net.species.size();
        s += (k ? " + " : "") + (known ? net.species[id - 1] : "#" + std::to_string(id));
    }
    return s;
}

}  // namespace

ReactionNetwork parseReactionNetwork(std::string_view text,
                                     const std::vector<std::string>& speciesNames,
                                     const std::string& source) {
    return NetworkParser(text, speciesNames, source).run();
}

std::string reactionText(const ReactionNetwork& net, const Reaction& r) {
    return sideText(net, r.reactants) + " -> " + sideText(net, r.products);
}

std::string formatReactionNetwork(const ReactionNetwork& net) {
    std::string out;
    for (const Reaction& r : net.reactions) {
        const std::string text = reactionText(net, r);
        if (!r.label.empty() && r.label != text) out += r.label + ": ";
        char rate[32];
        const auto res = std::to_chars(rate, rate + sizeof rate, r.rate);  // shortest round trip
        out += text + " @ " + std::string(rate, res.ptr);
        if (r.siteMask != kDefaultReactionSites) {
            std::string types;
            for (int t = 0; t < kSiteTypeCount; ++t)
                if (r.siteMask & siteTypeBit(static_cast<std::uint32_t>(t)))
                    types += (types.empty() ? "" : ", ") + std::string(kSiteTypeNames[t]);
            out += " in " + types;
        }
        out += '\n';
    }
    return out;
}

}  // namespace cf::lattice
