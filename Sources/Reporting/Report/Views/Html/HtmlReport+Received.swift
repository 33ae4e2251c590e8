/// The section of a report written by `apnsbench simulate --report`: the requests a sender made, by push
/// type, topic, priority and answer, with its provider tokens, connections and Live Activity budget.
extension HtmlReport {
    func received() -> String {
        guard let r = report.received else { return "" }
        var t = "<table><thead><tr><th>push type</th><th>topic</th><th class=\"n\">priority</th><th>answer</th>"
            + "<th class=\"n\">requests</th></tr></thead><tbody>\n"
        for c in r.requests {
            t += "<tr><td><code>\(HtmlEscape.text(c.pushType))</code></td><td><code>\(HtmlEscape.text(c.topic))</code></td>"
                + "<td class=\"n\">\(HtmlEscape.text(c.priority))</td><td><code>\(HtmlEscape.text(c.answer))</code></td><td class=\"n\">\(c.count)</td></tr>\n"
        }
        t += "<tr class=\"total\"><td>all</td><td></td><td></td><td></td><td class=\"n\">\(r.requests.reduce(0) { $0 + $1.count })</td></tr>\n"
        t += "</tbody></table>\n"
        let k = r.providerTokens
        t += "<p>Provider tokens: \(k.verified) verified (signings seen, once per connection), \(k.tooManyUpdates) TooManyProviderTokenUpdates, "
            + "\(k.expired) ExpiredProviderToken, \(k.invalidOrMissing) invalid or missing.</p>\n"
        let streams = r.connections.requestsPerConnection.sorted()
        let spread = streams.isEmpty ? "none" : "least \(streams[0]), median \(streams[streams.count / 2]), most \(streams[streams.count - 1])"
        t += "<p>Connections: \(r.connections.opened) opened, \(r.connections.closed) closed; requests per connection: \(spread).</p>\n"
        if let b = r.liveActivityBudget {
            t += "<p>Live Activity budget (\(b.perHour) priority-10 updates per token per hour): \(b.tokens) tokens, at most \(b.mostPerToken) to one; "
                + "\(b.tokensOverBudget) tokens over it, \(b.overruns) pushes past it.</p>\n"
        }
        return section("received", "Requests received by the simulator", t)
    }
}
