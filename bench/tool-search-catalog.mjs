/**
 * A realistic catalog for measuring tool search: 24 services, SaaS APIs (`stripe_create_refund`)
 * and MCP servers (`k8s__scale_deployment`, as `mcpTools` names them), each tool with the kind of
 * description and argument descriptions such APIs ship. Written, with the queries in
 * tool-search-queries.mjs, before the first measured run, and not tuned to the results since.
 *
 * Each entry: [group, tool, description, { argument: description }]. `mcp` groups are named
 * `<server>__<tool>`, the others `<service>_<tool>`.
 */

/** @type {Record<string, { mcp: boolean, tools: [string, string, Record<string, string>][] }>} */
export const services = {
  stripe: {
    mcp: false,
    tools: [
      [
        "create_customer",
        "Create a customer object to store payment methods, invoices and subscriptions for a buyer.",
        { email: "The customer's email address", name: "Full name or business name", metadata: "Key-value pairs to attach" },
      ],
      [
        "create_payment_intent",
        "Create a PaymentIntent to collect a payment from a customer in a given currency.",
        { amount: "Amount in the smallest currency unit", currency: "Three-letter ISO currency code", customer: "ID of the customer" },
      ],
      [
        "create_refund",
        "Refund a charge, in full or in part, to the original payment method.",
        {
          charge: "ID of the charge to refund",
          amount: "Amount to refund in cents; the whole charge when omitted",
          reason: "duplicate, fraudulent or requested_by_customer",
        },
      ],
      [
        "list_charges",
        "List charges, most recent first, optionally for one customer or a date range.",
        { customer: "Only charges of this customer", created_after: "Unix timestamp lower bound", limit: "Maximum number of charges" },
      ],
      [
        "create_subscription",
        "Start a subscription for a customer on one or more recurring prices.",
        { customer: "ID of the customer", price: "ID of the recurring price", trial_days: "Days of free trial" },
      ],
      [
        "cancel_subscription",
        "Cancel a customer's subscription immediately or at the end of the billing period.",
        { subscription: "ID of the subscription", at_period_end: "Cancel when the current period ends" },
      ],
      [
        "create_invoice",
        "Create a draft invoice for a customer from their pending invoice items.",
        { customer: "ID of the customer", days_until_due: "Days the customer has to pay" },
      ],
      [
        "create_coupon",
        "Create a coupon that takes a percentage or a fixed amount off invoices.",
        { percent_off: "Percentage discount", amount_off: "Fixed discount in cents", duration: "once, repeating or forever" },
      ],
      ["retrieve_balance", "Retrieve the current account balance, available and pending, per currency.", {}],
      ["create_payout", "Send funds from the Stripe balance to the connected bank account.", { amount: "Amount in cents", currency: "Currency of the payout" }],
    ],
  },
  github: {
    mcp: true,
    tools: [
      [
        "create_issue",
        "Create a new issue in a GitHub repository.",
        { owner: "Repository owner", repo: "Repository name", title: "Issue title", body: "Issue body in Markdown", labels: "Labels to apply" },
      ],
      [
        "list_issues",
        "List issues in a repository, filtered by state, labels or assignee.",
        { owner: "Repository owner", repo: "Repository name", state: "open, closed or all", labels: "Comma-separated label names" },
      ],
      [
        "create_pull_request",
        "Open a pull request to merge a branch into a base branch.",
        { owner: "Repository owner", repo: "Repository name", head: "Branch with the changes", base: "Branch to merge into", title: "Pull request title" },
      ],
      [
        "merge_pull_request",
        "Merge an open pull request.",
        { owner: "Repository owner", repo: "Repository name", pull_number: "Pull request number", merge_method: "merge, squash or rebase" },
      ],
      [
        "add_issue_comment",
        "Add a comment to an issue or pull request.",
        { owner: "Repository owner", repo: "Repository name", issue_number: "Issue number", body: "Comment text" },
      ],
      [
        "create_branch",
        "Create a new branch from an existing branch or commit.",
        { owner: "Repository owner", repo: "Repository name", branch: "Name of the new branch", from_branch: "Source branch" },
      ],
      ["search_code", "Search for code across GitHub repositories.", { q: "Search query using GitHub code search syntax" }],
      [
        "get_file_contents",
        "Get the contents of a file or directory from a repository.",
        { owner: "Repository owner", repo: "Repository name", path: "Path to the file", ref: "Branch, tag or commit" },
      ],
      ["list_commits", "List commits on a branch of a repository.", { owner: "Repository owner", repo: "Repository name", sha: "Branch name or commit SHA" }],
      [
        "create_release",
        "Create a release from a tag, with release notes.",
        { owner: "Repository owner", repo: "Repository name", tag_name: "Tag to release", body: "Release notes" },
      ],
      [
        "fork_repository",
        "Fork a repository to your account or an organization.",
        { owner: "Repository owner", repo: "Repository name", organization: "Organization to fork into" },
      ],
    ],
  },
  jira: {
    mcp: false,
    tools: [
      [
        "create_issue",
        "Create a Jira issue (story, bug, task) in a project.",
        { project: "Project key", summary: "Issue summary", issue_type: "Story, Bug or Task", description: "Issue description" },
      ],
      [
        "transition_issue",
        "Move a Jira issue to another status in its workflow, such as In Progress or Done.",
        { issue: "Issue key", transition: "Name or ID of the transition" },
      ],
      ["assign_issue", "Assign a Jira issue to a user.", { issue: "Issue key", assignee: "Account ID of the assignee" }],
      ["search_issues", "Search Jira issues with a JQL query.", { jql: "JQL query", max_results: "Maximum number of issues" }],
      ["add_comment", "Add a comment to a Jira issue.", { issue: "Issue key", body: "Comment text" }],
      ["create_sprint", "Create a sprint on a Scrum board.", { board: "Board ID", name: "Sprint name", start_date: "Start date", end_date: "End date" }],
      ["log_work", "Log time spent on a Jira issue.", { issue: "Issue key", time_spent: "Time spent, like 2h 30m", comment: "Work description" }],
      [
        "link_issues",
        "Link two Jira issues, for example blocks or duplicates.",
        { inward: "Inward issue key", outward: "Outward issue key", type: "Link type name" },
      ],
      ["list_projects", "List the Jira projects visible to the user.", {}],
    ],
  },
  slack: {
    mcp: true,
    tools: [
      [
        "post_message",
        "Post a message to a Slack channel.",
        { channel: "Channel ID or name", text: "Message text", thread_ts: "Timestamp of the parent message to reply in a thread" },
      ],
      ["send_direct_message", "Send a direct message to a Slack user.", { user: "User ID", text: "Message text" }],
      ["list_channels", "List public channels in the workspace.", { limit: "Maximum number of channels" }],
      ["create_channel", "Create a public or private channel.", { name: "Channel name", is_private: "Create a private channel" }],
      ["invite_to_channel", "Invite users to a channel.", { channel: "Channel ID", users: "User IDs to invite" }],
      ["add_reaction", "Add an emoji reaction to a message.", { channel: "Channel ID", timestamp: "Message timestamp", name: "Emoji name" }],
      ["get_channel_history", "Fetch the recent messages of a channel.", { channel: "Channel ID", limit: "Number of messages" }],
      [
        "set_user_status",
        "Set the status text and emoji of the current user.",
        { status_text: "Status text", status_emoji: "Status emoji", expiration: "When the status clears" },
      ],
      [
        "schedule_message",
        "Schedule a message to be posted to a channel at a later time.",
        { channel: "Channel ID", text: "Message text", post_at: "Unix timestamp to post at" },
      ],
      ["search_messages", "Search messages across the workspace.", { query: "Search query" }],
    ],
  },
  gmail: {
    mcp: false,
    tools: [
      [
        "send_email",
        "Send an email from the user's Gmail account.",
        { to: "Recipient addresses", subject: "Subject line", body: "Message body", cc: "CC recipients" },
      ],
      ["create_draft", "Create a draft email without sending it.", { to: "Recipient addresses", subject: "Subject line", body: "Message body" }],
      [
        "search_emails",
        "Search the mailbox with Gmail search operators.",
        { query: "Gmail search query, like from:alice is:unread", max_results: "Maximum number of messages" },
      ],
      ["get_email", "Read one email message with its headers and body.", { id: "Message ID" }],
      ["reply_to_email", "Reply to an email thread.", { thread_id: "Thread ID", body: "Reply body" }],
      ["add_label", "Add a label to messages.", { ids: "Message IDs", label: "Label name" }],
      ["archive_email", "Archive messages, removing them from the inbox.", { ids: "Message IDs" }],
      [
        "create_filter",
        "Create a filter that applies actions to incoming mail matching criteria.",
        { from: "Sender to match", subject: "Subject to match", action: "Label, archive, forward or delete" },
      ],
      [
        "set_vacation_responder",
        "Turn the out-of-office auto-reply on or off.",
        { enabled: "Whether the responder is on", message: "Auto-reply text", end: "Last day of the responder" },
      ],
    ],
  },
  gcal: {
    mcp: false,
    tools: [
      [
        "create_event",
        "Create an event on a Google Calendar.",
        { calendar: "Calendar ID", summary: "Event title", start: "Start time", end: "End time", attendees: "Attendee emails" },
      ],
      ["list_events", "List events in a time range on a calendar.", { calendar: "Calendar ID", time_min: "Lower bound", time_max: "Upper bound" }],
      [
        "update_event",
        "Change an event's time, title, location or attendees.",
        { event: "Event ID", start: "New start time", end: "New end time", location: "New location" },
      ],
      ["delete_event", "Delete an event from a calendar.", { event: "Event ID", notify: "Send cancellation emails to attendees" }],
      [
        "find_free_time",
        "Find time slots when all the given people are free.",
        { attendees: "Emails of the people", duration: "Meeting length in minutes", within: "Date range to search" },
      ],
      [
        "respond_to_invitation",
        "Accept, decline or tentatively accept an event invitation.",
        { event: "Event ID", response: "accepted, declined or tentative" },
      ],
      ["create_calendar", "Create a secondary calendar.", { summary: "Calendar name", time_zone: "Time zone" }],
      [
        "share_calendar",
        "Share a calendar with a person, with read or write access.",
        { calendar: "Calendar ID", email: "Person to share with", role: "reader or writer" },
      ],
    ],
  },
  salesforce: {
    mcp: false,
    tools: [
      [
        "create_lead",
        "Create a lead record for a prospective customer.",
        { first_name: "First name", last_name: "Last name", company: "Company", email: "Email" },
      ],
      [
        "convert_lead",
        "Convert a qualified lead into an account, contact and opportunity.",
        { lead: "Lead ID", create_opportunity: "Also create an opportunity" },
      ],
      [
        "create_opportunity",
        "Create a sales opportunity for an account.",
        { account: "Account ID", name: "Opportunity name", amount: "Expected deal size", close_date: "Expected close date", stage: "Sales stage" },
      ],
      ["update_opportunity_stage", "Move an opportunity to another sales stage, such as Closed Won.", { opportunity: "Opportunity ID", stage: "New stage" }],
      ["query_records", "Run a SOQL query over Salesforce records.", { soql: "SOQL query" }],
      [
        "create_task",
        "Create a follow-up task on a record, with a due date and owner.",
        { what: "Related record ID", subject: "Task subject", due: "Due date", owner: "User ID" },
      ],
      ["log_call", "Log a phone call on a contact or lead.", { who: "Contact or lead ID", notes: "Call notes", duration: "Call length in minutes" }],
      ["get_account", "Get an account with its contacts and open opportunities.", { account: "Account ID" }],
      ["run_report", "Run a saved Salesforce report and return its rows.", { report: "Report ID", filters: "Report filters" }],
    ],
  },
  hubspot: {
    mcp: false,
    tools: [
      ["create_contact", "Create a contact in the CRM.", { email: "Email", firstname: "First name", lastname: "Last name", phone: "Phone number" }],
      ["update_contact", "Update a contact's properties.", { contact: "Contact ID", properties: "Properties to set" }],
      ["search_contacts", "Search contacts by property values.", { query: "Text to search", filters: "Property filters" }],
      ["create_deal", "Create a deal in a pipeline.", { dealname: "Deal name", amount: "Deal amount", pipeline: "Pipeline ID", dealstage: "Deal stage" }],
      [
        "associate_objects",
        "Associate two CRM records, such as a contact with a company.",
        { from: "Source record", to: "Target record", type: "Association type" },
      ],
      ["create_company", "Create a company record.", { name: "Company name", domain: "Company website domain" }],
      ["enroll_in_workflow", "Enroll a contact in an automated workflow.", { workflow: "Workflow ID", email: "Contact email" }],
      ["create_note", "Add a note to a CRM record's timeline.", { record: "Record ID", body: "Note text" }],
    ],
  },
  zendesk: {
    mcp: false,
    tools: [
      [
        "create_ticket",
        "Create a support ticket on behalf of a requester.",
        { subject: "Ticket subject", comment: "First comment", requester: "Requester email", priority: "low, normal, high or urgent" },
      ],
      [
        "update_ticket",
        "Update a ticket's status, priority, assignee or tags.",
        { ticket: "Ticket ID", status: "new, open, pending, solved or closed", priority: "Priority", assignee: "Agent ID" },
      ],
      [
        "add_ticket_comment",
        "Add a public reply or an internal note to a ticket.",
        { ticket: "Ticket ID", body: "Comment text", public: "Visible to the requester" },
      ],
      ["search_tickets", "Search tickets with the Zendesk search syntax.", { query: "Search query" }],
      ["merge_tickets", "Merge tickets into a target ticket.", { target: "Target ticket ID", sources: "Ticket IDs to merge" }],
      ["list_macros", "List the macros available to agents.", {}],
      ["apply_macro", "Apply a macro's actions to a ticket.", { ticket: "Ticket ID", macro: "Macro ID" }],
      ["get_satisfaction_ratings", "List customer satisfaction ratings for solved tickets.", { score: "good or bad", start_time: "Lower bound" }],
      ["create_help_center_article", "Publish an article in the Help Center.", { section: "Section ID", title: "Article title", body: "Article body in HTML" }],
    ],
  },
  shopify: {
    mcp: false,
    tools: [
      [
        "create_product",
        "Create a product with variants, prices and images.",
        { title: "Product title", body_html: "Description", variants: "Variants with price and SKU", images: "Image URLs" },
      ],
      [
        "update_inventory_level",
        "Set the available inventory of an item at a location.",
        { inventory_item: "Inventory item ID", location: "Location ID", available: "Available quantity" },
      ],
      [
        "list_orders",
        "List orders, filtered by status, date or customer.",
        { status: "open, closed, cancelled or any", created_at_min: "Lower bound", customer: "Customer ID" },
      ],
      [
        "fulfill_order",
        "Mark an order's items as fulfilled and add tracking information.",
        { order: "Order ID", tracking_number: "Carrier tracking number", carrier: "Shipping carrier" },
      ],
      [
        "cancel_order",
        "Cancel an order, optionally restocking items and refunding the payment.",
        { order: "Order ID", restock: "Put items back in stock", refund: "Refund the payment" },
      ],
      ["create_discount_code", "Create a discount code for a price rule.", { price_rule: "Price rule ID", code: "The code customers enter" }],
      [
        "create_draft_order",
        "Create a draft order that can be sent to a customer as an invoice.",
        { line_items: "Products and quantities", customer: "Customer ID" },
      ],
      ["get_customer", "Get a customer with their addresses and order count.", { customer: "Customer ID" }],
      [
        "update_product_price",
        "Change the price of a product variant.",
        { variant: "Variant ID", price: "New price", compare_at_price: "Original price shown crossed out" },
      ],
      ["create_collection", "Create a collection of products.", { title: "Collection title", rules: "Rules for automatic collections" }],
    ],
  },
  k8s: {
    mcp: true,
    tools: [
      ["list_pods", "List pods in a Kubernetes namespace with their status.", { namespace: "Namespace", label_selector: "Label selector" }],
      [
        "get_pod_logs",
        "Get the logs of a container in a pod.",
        { namespace: "Namespace", pod: "Pod name", container: "Container name", tail_lines: "Number of lines from the end" },
      ],
      [
        "scale_deployment",
        "Scale a deployment to a number of replicas.",
        { namespace: "Namespace", deployment: "Deployment name", replicas: "Desired number of replicas" },
      ],
      ["rollout_restart", "Restart a deployment's pods with a rolling restart.", { namespace: "Namespace", deployment: "Deployment name" }],
      [
        "rollout_undo",
        "Roll a deployment back to its previous revision.",
        { namespace: "Namespace", deployment: "Deployment name", to_revision: "Revision to roll back to" },
      ],
      ["apply_manifest", "Apply a YAML manifest to the cluster, creating or updating resources.", { manifest: "YAML manifest" }],
      ["delete_pod", "Delete a pod; its controller starts a new one.", { namespace: "Namespace", pod: "Pod name" }],
      ["describe_resource", "Describe a resource with its events and conditions.", { kind: "Resource kind", name: "Resource name", namespace: "Namespace" }],
      ["exec_in_pod", "Run a command in a container of a pod.", { namespace: "Namespace", pod: "Pod name", command: "Command and arguments" }],
      ["list_nodes", "List cluster nodes with their capacity and conditions.", {}],
      ["cordon_node", "Mark a node unschedulable so no new pods are placed on it.", { node: "Node name" }],
      [
        "set_image",
        "Update the container image of a deployment.",
        { namespace: "Namespace", deployment: "Deployment name", container: "Container name", image: "New image" },
      ],
    ],
  },
  postgres: {
    mcp: true,
    tools: [
      ["query", "Run a read-only SQL query and return the rows.", { sql: "SQL query" }],
      ["execute", "Run a SQL statement that changes data or schema.", { sql: "SQL statement" }],
      ["list_tables", "List tables in a schema.", { schema: "Schema name" }],
      ["describe_table", "Show a table's columns, types, indexes and constraints.", { table: "Table name" }],
      ["explain_query", "Show the execution plan of a query.", { sql: "SQL query", analyze: "Run it and report actual timings" }],
      ["list_slow_queries", "List the slowest queries from pg_stat_statements.", { limit: "Number of queries" }],
      ["create_index", "Create an index on table columns.", { table: "Table name", columns: "Columns to index", concurrently: "Build without locking writes" }],
      ["backup_database", "Create a logical backup of a database with pg_dump.", { database: "Database name", destination: "Where to write the dump" }],
    ],
  },
  fs: {
    mcp: true,
    tools: [
      ["read_file", "Read the complete contents of a file.", { path: "Path to the file" }],
      ["write_file", "Create a new file or overwrite an existing one with content.", { path: "Path to the file", content: "Text to write" }],
      ["edit_file", "Make line-based edits to a text file.", { path: "Path to the file", edits: "Old and new text pairs" }],
      ["list_directory", "List the files and directories at a path.", { path: "Directory path" }],
      ["move_file", "Move or rename a file or directory.", { source: "Current path", destination: "New path" }],
      ["search_files", "Recursively search for files whose names match a pattern.", { path: "Where to start", pattern: "Glob pattern" }],
      ["get_file_info", "Get a file's size, timestamps and permissions.", { path: "Path to the file" }],
      ["create_directory", "Create a directory, with its parents if needed.", { path: "Directory path" }],
    ],
  },
  s3: {
    mcp: false,
    tools: [
      ["list_buckets", "List the S3 buckets of the account.", {}],
      ["create_bucket", "Create an S3 bucket in a region.", { bucket: "Bucket name", region: "AWS region" }],
      ["put_object", "Upload an object to a bucket.", { bucket: "Bucket name", key: "Object key", body: "Content", content_type: "MIME type" }],
      ["get_object", "Download an object from a bucket.", { bucket: "Bucket name", key: "Object key" }],
      ["delete_object", "Delete an object from a bucket.", { bucket: "Bucket name", key: "Object key" }],
      [
        "generate_presigned_url",
        "Generate a time-limited URL that grants access to an object without credentials.",
        { bucket: "Bucket name", key: "Object key", expires_in: "Seconds until the URL expires" },
      ],
      [
        "put_bucket_lifecycle",
        "Set lifecycle rules that expire or transition objects after a number of days.",
        { bucket: "Bucket name", rules: "Lifecycle rules" },
      ],
      ["copy_object", "Copy an object within or between buckets.", { source: "Source bucket and key", bucket: "Destination bucket", key: "Destination key" }],
    ],
  },
  twilio: {
    mcp: false,
    tools: [
      ["send_sms", "Send an SMS message to a phone number.", { to: "Destination phone number in E.164", from: "Twilio number", body: "Message text" }],
      ["make_call", "Place an outbound voice call that plays TwiML.", { to: "Number to call", from: "Twilio number", twiml: "Instructions for the call" }],
      ["list_messages", "List sent and received SMS messages.", { to: "Filter by recipient", date_sent: "Filter by date" }],
      ["buy_phone_number", "Purchase an available phone number.", { area_code: "Area code", country: "Country code" }],
      ["send_verification_code", "Send a one-time verification code by SMS or voice.", { to: "Phone number", channel: "sms or call" }],
      ["check_verification_code", "Check a one-time code a user entered.", { to: "Phone number", code: "The code entered" }],
      ["lookup_phone_number", "Look up a phone number's carrier and line type.", { number: "Phone number" }],
    ],
  },
  mailchimp: {
    mcp: false,
    tools: [
      [
        "add_list_member",
        "Add a subscriber to an audience list.",
        { list: "Audience ID", email_address: "Subscriber email", status: "subscribed or pending", merge_fields: "First name, last name and other fields" },
      ],
      ["unsubscribe_member", "Unsubscribe an address from an audience.", { list: "Audience ID", email_address: "Subscriber email" }],
      ["create_campaign", "Create an email campaign for an audience.", { list: "Audience ID", subject_line: "Subject line", from_name: "Sender name" }],
      ["send_campaign", "Send a campaign now.", { campaign: "Campaign ID" }],
      ["schedule_campaign", "Schedule a campaign to send at a time.", { campaign: "Campaign ID", schedule_time: "Send time" }],
      ["get_campaign_report", "Get a sent campaign's opens, clicks, bounces and unsubscribes.", { campaign: "Campaign ID" }],
      ["tag_member", "Add or remove tags on a subscriber.", { list: "Audience ID", email_address: "Subscriber email", tags: "Tags" }],
      ["create_segment", "Create a segment of an audience from conditions.", { list: "Audience ID", name: "Segment name", conditions: "Match conditions" }],
    ],
  },
  notion: {
    mcp: true,
    tools: [
      [
        "create_page",
        "Create a page in a Notion workspace or database.",
        { parent: "Parent page or database ID", title: "Page title", content: "Page content blocks" },
      ],
      ["update_page", "Update a page's properties.", { page: "Page ID", properties: "Properties to set" }],
      ["search", "Search pages and databases by title.", { query: "Text to search" }],
      ["query_database", "Query a database with filters and sorts.", { database: "Database ID", filter: "Filter", sorts: "Sort order" }],
      ["append_blocks", "Append content blocks to a page.", { page: "Page ID", blocks: "Blocks to append" }],
      ["create_database", "Create a database with a property schema.", { parent: "Parent page ID", title: "Database title", properties: "Property schema" }],
      ["add_comment", "Add a comment to a page or discussion.", { page: "Page ID", text: "Comment text" }],
      ["get_page", "Retrieve a page and its properties.", { page: "Page ID" }],
    ],
  },
  linear: {
    mcp: true,
    tools: [
      ["create_issue", "Create a Linear issue in a team.", { team: "Team ID", title: "Issue title", description: "Markdown description", priority: "0 to 4" }],
      [
        "update_issue",
        "Update an issue's state, assignee, priority or estimate.",
        { issue: "Issue ID", state: "Workflow state", assignee: "User ID", estimate: "Points" },
      ],
      ["list_my_issues", "List issues assigned to the current user.", { state: "Filter by state" }],
      ["create_project", "Create a project with a target date.", { team: "Team ID", name: "Project name", target_date: "Target date" }],
      ["create_cycle", "Create a cycle for a team.", { team: "Team ID", starts_at: "Start", ends_at: "End" }],
      ["add_label", "Add a label to an issue.", { issue: "Issue ID", label: "Label ID" }],
      ["search_issues", "Search issues by text.", { query: "Search text" }],
    ],
  },
  datadog: {
    mcp: true,
    tools: [
      ["query_metrics", "Query timeseries metrics over a time window.", { query: "Metric query, like avg:system.cpu.user{*}", from: "Start", to: "End" }],
      ["search_logs", "Search logs with a query over a time window.", { query: "Log search query", from: "Start", to: "End" }],
      [
        "create_monitor",
        "Create a monitor that alerts when a metric crosses a threshold.",
        { name: "Monitor name", query: "Monitor query", message: "Notification message", thresholds: "Warning and critical thresholds" },
      ],
      ["mute_monitor", "Mute a monitor's notifications until a time.", { monitor: "Monitor ID", end: "When to unmute" }],
      ["list_monitors", "List monitors and their states.", { tags: "Filter by tags" }],
      ["create_dashboard", "Create a dashboard with widgets.", { title: "Dashboard title", widgets: "Widget definitions" }],
      ["schedule_downtime", "Schedule a downtime that silences monitors during maintenance.", { scope: "Scope tags", start: "Start", end: "End" }],
      ["get_service_dependencies", "Get the upstream and downstream services of an APM service.", { service: "Service name", env: "Environment" }],
    ],
  },
  pagerduty: {
    mcp: false,
    tools: [
      [
        "trigger_incident",
        "Trigger an incident on a service, paging its on-call responder.",
        { service: "Service ID", title: "Incident title", urgency: "high or low" },
      ],
      ["acknowledge_incident", "Acknowledge an incident to stop its escalation.", { incident: "Incident ID" }],
      ["resolve_incident", "Resolve an incident.", { incident: "Incident ID", resolution: "Resolution note" }],
      ["list_oncalls", "List who is on call for escalation policies and schedules.", { schedule: "Schedule ID", since: "Start", until: "End" }],
      [
        "create_override",
        "Create a schedule override so another user covers a shift.",
        { schedule: "Schedule ID", user: "User ID", start: "Start", end: "End" },
      ],
      ["list_incidents", "List incidents by status and service.", { statuses: "triggered, acknowledged or resolved", service: "Service ID" }],
      ["add_incident_note", "Add a note to an incident's timeline.", { incident: "Incident ID", content: "Note text" }],
    ],
  },
  sentry: {
    mcp: true,
    tools: [
      [
        "list_issues",
        "List unresolved error issues of a project, most frequent first.",
        { project: "Project slug", query: "Search query", environment: "Environment" },
      ],
      ["get_issue_details", "Get an error issue with its latest event and stack trace.", { issue: "Issue ID" }],
      [
        "resolve_issue",
        "Mark an error issue as resolved, optionally in the next release.",
        { issue: "Issue ID", in_next_release: "Resolve in the next release" },
      ],
      [
        "ignore_issue",
        "Ignore an issue until it happens again a number of times or for a period.",
        { issue: "Issue ID", ignore_count: "Occurrences before it reappears", ignore_duration: "Minutes" },
      ],
      ["list_releases", "List releases of a project with their new issues and crash-free rate.", { project: "Project slug" }],
      ["create_alert_rule", "Create an alert rule on issue frequency or a metric.", { project: "Project slug", conditions: "Conditions", actions: "Actions" }],
    ],
  },
  docker: {
    mcp: true,
    tools: [
      ["list_containers", "List containers, running or all.", { all: "Include stopped containers" }],
      [
        "run_container",
        "Create and start a container from an image.",
        { image: "Image name", name: "Container name", ports: "Port mappings", env: "Environment variables" },
      ],
      ["stop_container", "Stop a running container.", { container: "Container ID or name" }],
      ["container_logs", "Fetch the logs of a container.", { container: "Container ID or name", tail: "Lines from the end" }],
      ["pull_image", "Pull an image from a registry.", { image: "Image name and tag" }],
      ["build_image", "Build an image from a Dockerfile.", { context: "Build context path", tag: "Image tag" }],
      ["prune_images", "Remove dangling and unused images to free disk space.", { all: "Remove all unused images, not only dangling ones" }],
    ],
  },
  quickbooks: {
    mcp: false,
    tools: [
      ["create_invoice", "Create an invoice for a customer with line items.", { customer: "Customer ID", lines: "Line items", due_date: "Due date" }],
      ["record_payment", "Record a payment received against invoices.", { customer: "Customer ID", amount: "Amount received", invoices: "Invoices paid" }],
      [
        "create_expense",
        "Record an expense paid from a bank or credit card account.",
        { account: "Payment account", vendor: "Vendor", amount: "Amount", category: "Expense category" },
      ],
      ["create_bill", "Enter a bill from a vendor to pay later.", { vendor: "Vendor ID", lines: "Line items", due_date: "Due date" }],
      ["get_profit_and_loss", "Get the profit and loss report for a period.", { start_date: "Start", end_date: "End" }],
      ["get_balance_sheet", "Get the balance sheet at a date.", { date: "As-of date" }],
      ["create_vendor", "Create a vendor.", { name: "Vendor name", email: "Vendor email" }],
      [
        "reconcile_account",
        "Reconcile a bank account against a statement.",
        { account: "Account ID", statement_balance: "Ending balance", statement_date: "Statement date" },
      ],
    ],
  },
  gdrive: {
    mcp: true,
    tools: [
      ["search_files", "Search Google Drive files by name or content.", { query: "Search query" }],
      ["upload_file", "Upload a file to Google Drive.", { name: "File name", content: "File content", folder: "Parent folder ID" }],
      ["share_file", "Share a file with a person or make it public.", { file: "File ID", email: "Person to share with", role: "reader, commenter or writer" }],
      ["create_folder", "Create a folder.", { name: "Folder name", parent: "Parent folder ID" }],
      ["export_file", "Export a Google Doc, Sheet or Slides file as PDF or another format.", { file: "File ID", mime_type: "Target format" }],
      ["create_spreadsheet", "Create a Google Sheets spreadsheet.", { title: "Spreadsheet title" }],
      ["append_rows", "Append rows to a sheet.", { spreadsheet: "Spreadsheet ID", range: "Sheet range", values: "Rows of values" }],
      ["list_revisions", "List the version history of a file.", { file: "File ID" }],
    ],
  },
  zoom: {
    mcp: false,
    tools: [
      [
        "create_meeting",
        "Schedule a Zoom meeting and get its join link.",
        { topic: "Meeting topic", start_time: "Start time", duration: "Minutes", invitees: "Invitee emails" },
      ],
      ["list_recordings", "List cloud recordings of past meetings.", { from: "Start date", to: "End date" }],
      ["get_meeting_participants", "List who attended a past meeting and for how long.", { meeting: "Meeting ID" }],
      ["delete_meeting", "Delete a scheduled meeting.", { meeting: "Meeting ID" }],
      ["create_webinar", "Create a webinar with registration.", { topic: "Webinar topic", start_time: "Start time", approval_type: "Registration approval" }],
    ],
  },
  asana: {
    mcp: false,
    tools: [
      [
        "create_task",
        "Create a task in a project, with an assignee and due date.",
        { project: "Project ID", name: "Task name", assignee: "Assignee", due_on: "Due date" },
      ],
      ["complete_task", "Mark a task as complete.", { task: "Task ID" }],
      ["add_subtask", "Add a subtask under a task.", { parent: "Parent task ID", name: "Subtask name" }],
      ["list_project_tasks", "List the tasks of a project.", { project: "Project ID", completed_since: "Only tasks incomplete or completed since" }],
      ["add_task_follower", "Add followers to a task so they get its updates.", { task: "Task ID", followers: "Users" }],
      ["create_project", "Create a project in a team.", { team: "Team ID", name: "Project name", layout: "list or board" }],
    ],
  },
  okta: {
    mcp: false,
    tools: [
      [
        "create_user",
        "Create a user in the directory and optionally activate them.",
        { email: "Email", first_name: "First name", last_name: "Last name", activate: "Send the activation email" },
      ],
      ["deactivate_user", "Deactivate a user, ending their sessions and access to all apps.", { user: "User ID" }],
      ["reset_password", "Start a password reset for a user.", { user: "User ID", send_email: "Email the reset link" }],
      ["reset_factors", "Reset a user's enrolled MFA factors so they enroll again.", { user: "User ID" }],
      ["add_user_to_group", "Add a user to a group, granting the group's app assignments.", { group: "Group ID", user: "User ID" }],
      ["assign_app", "Assign an application to a user.", { app: "App ID", user: "User ID" }],
      ["list_user_groups", "List the groups a user belongs to.", { user: "User ID" }],
      ["unlock_user", "Unlock a user locked out after too many failed sign-ins.", { user: "User ID" }],
    ],
  },
  cloudflare: {
    mcp: true,
    tools: [
      [
        "create_dns_record",
        "Create a DNS record in a zone.",
        { zone: "Zone ID", type: "A, AAAA, CNAME, MX or TXT", name: "Record name", content: "Record value", ttl: "TTL" },
      ],
      ["list_dns_records", "List the DNS records of a zone.", { zone: "Zone ID", type: "Filter by type" }],
      ["purge_cache", "Purge cached files from the CDN, all or by URL.", { zone: "Zone ID", files: "URLs to purge", purge_everything: "Purge everything" }],
      [
        "create_firewall_rule",
        "Block, challenge or allow requests that match an expression.",
        { zone: "Zone ID", expression: "Rule expression", action: "block, challenge or allow" },
      ],
      ["deploy_worker", "Deploy a Worker script.", { name: "Worker name", script: "Script source" }],
      ["get_zone_analytics", "Get a zone's requests, bandwidth and threats over time.", { zone: "Zone ID", since: "Start", until: "End" }],
    ],
  },
  weather: {
    mcp: true,
    tools: [
      [
        "get_forecast",
        "Get the weather forecast for a location for the coming days.",
        { latitude: "Latitude", longitude: "Longitude", days: "Number of days" },
      ],
      ["get_alerts", "Get active weather alerts for a US state.", { state: "Two-letter state code" }],
    ],
  },
};

/** Every tool as `{ group, name, description, args }`, in the order written. */
export const catalog = Object.entries(services).flatMap(([group, { mcp, tools }]) =>
  tools.map(([tool, description, args]) => ({ group, name: `${group}${mcp ? "__" : "_"}${tool}`, description, args })),
);
