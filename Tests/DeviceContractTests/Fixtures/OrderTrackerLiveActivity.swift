// A widget extension's Live Activity file in the layout Xcode 15 and later generate for a new Live
// Activity target (attributes, the widget, preview values and a #Preview with content states), written
// for these tests.
import ActivityKit
import WidgetKit
import SwiftUI

struct OrderTrackerAttributes: ActivityAttributes {
    public struct ContentState: Codable, Hashable {
        // Values that change while the activity runs.
        var emoji: String
    }

    // Values fixed for the activity's life.
    var name: String
}

struct OrderTrackerLiveActivity: Widget {
    var body: some WidgetConfiguration {
        ActivityConfiguration(for: OrderTrackerAttributes.self) { context in
            // The Lock Screen and banner presentation.
            VStack {
                Text("Hello \(context.state.emoji)")
            }
            .activityBackgroundTint(Color.cyan)
            .activitySystemActionForegroundColor(Color.black)

        } dynamicIsland: { context in
            DynamicIsland {
                // The expanded presentation, by region.
                DynamicIslandExpandedRegion(.leading) {
                    Text("Leading")
                }
                DynamicIslandExpandedRegion(.trailing) {
                    Text("Trailing")
                }
                DynamicIslandExpandedRegion(.bottom) {
                    Text("Bottom \(context.state.emoji)")
                    // further views here
                }
            } compactLeading: {
                Text("L")
            } compactTrailing: {
                Text("T \(context.state.emoji)")
            } minimal: {
                Text(context.state.emoji)
            }
            .widgetURL(URL(string: "https://example.com"))
            .keylineTint(Color.red)
        }
    }
}

extension OrderTrackerAttributes {
    fileprivate static var preview: OrderTrackerAttributes {
        OrderTrackerAttributes(name: "World")
    }
}

extension OrderTrackerAttributes.ContentState {
    fileprivate static var waving: OrderTrackerAttributes.ContentState {
        OrderTrackerAttributes.ContentState(emoji: "👋")
     }

     fileprivate static var partying: OrderTrackerAttributes.ContentState {
         OrderTrackerAttributes.ContentState(emoji: "🥳")
     }
}

#Preview("Notification", as: .content, using: OrderTrackerAttributes.preview) {
   OrderTrackerLiveActivity()
} contentStates: {
    OrderTrackerAttributes.ContentState.waving
    OrderTrackerAttributes.ContentState.partying
}
