/// Which event of a recipe a line is: the match field's value first, then the API calls in recipe order, with
/// the captures of the matched path. ``RecipeRules`` (planning) and the recording scaler match with it.
struct RecipeLineMatcher {
    let recipe: Recipe
    private let byValue: [String: Int]
    private let byRequest: [Int]
    /// The captures of the last matched API path.
    private(set) var captures: [String] = []

    init(_ recipe: Recipe) {
        self.recipe = recipe
        var byValue: [String: Int] = [:]
        var byRequest: [Int] = []
        for (i, e) in recipe.events.enumerated() {
            switch e.match {
            case let .value(_, v): if byValue[v] == nil { byValue[v] = i }
            case .request: byRequest.append(i)
            }
        }
        self.byValue = byValue
        self.byRequest = byRequest
    }

    /// The event whose match field has `value`.
    func event(value: String) -> Int? { byValue[value] }

    /// Whether any event matches an API call.
    var matchesRequests: Bool { !byRequest.isEmpty }

    /// The first API-call event `method` and `path` match, its path's values in ``captures``.
    mutating func event(method: String, path: String) -> Int? {
        for i in byRequest {
            guard case let .request(m, pattern) = recipe.events[i].match, m == method else { continue }
            if pattern.match(path, into: &captures) { return i }
        }
        return nil
    }

    /// The event `line` is, or nil when it is none (a bad line to the recipe).
    mutating func match(_ line: FlatJSONObject) -> Int? {
        captures.removeAll(keepingCapacity: true)
        if let field = recipe.matchField, let value = (try? line.optionalString(field)) ?? nil, let i = event(value: value) {
            return i
        }
        guard matchesRequests,
              let method = (try? line.optionalString(recipe.methodField)) ?? nil,
              let path = (try? line.optionalString(recipe.pathField)) ?? nil
        else { return nil }
        return event(method: method, path: path)
    }
}
