package blockkit

// Limits Slack enforces on messages, views and Block Kit objects. Lengths are
// in Unicode code points.
const (
	MaxMessageBlocks    = 50    // blocks in one message
	MaxViewBlocks       = 100   // blocks in a modal or Home tab view
	MaxMessageText      = 40000 // top-level text of a message (msg_too_long beyond)
	MaxTextObject       = 3000  // any text object
	MaxSectionText      = 3000  // section text
	MaxSectionFields    = 10    // fields in one section
	MaxFieldText        = 2000  // each section field
	MaxHeaderText       = 150   // header plain_text
	MaxContextElements  = 10    // elements in one context block
	MaxActionsElements  = 25    // elements in one actions block
	MaxButtonText       = 75    // button label
	MaxButtonValue      = 2000  // button value
	MaxButtonA11yLabel  = 75    // button accessibility_label
	MaxURL              = 3000  // button url, image_url
	MaxID               = 255   // block_id and action_id
	MaxAltText          = 2000  // image alt_text
	MaxImageTitle       = 2000  // image block title
	MaxMarkdownText     = 12000 // markdown block text
	MaxConfirmTitle     = 100   // confirm dialog title
	MaxConfirmText      = 300   // confirm dialog text
	MaxConfirmButton    = 30    // confirm dialog confirm/deny labels
	MaxOptionText       = 75    // option text in selects and overflow menus
	MaxOptionValue      = 150   // option value
	MaxOverflowOptions  = 5     // options in an overflow menu
	MinOverflowOptions  = 1     // options in an overflow menu
	MaxSelectOptions    = 100   // options in a static select
	MaxPlaceholderText  = 150   // placeholder text of inputs and selects
	MaxInputLabel       = 2000  // input block label
	MaxInputHint        = 2000  // input block hint
	maxReportedFailures = 20    // violations listed before giving up
)
