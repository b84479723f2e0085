package blockkit

import "fmt"

// Element types allowed in each container, from Slack's block reference.
var (
	selectElements = []string{
		"static_select", "external_select", "users_select", "conversations_select", "channels_select",
		"multi_static_select", "multi_external_select", "multi_users_select", "multi_conversations_select", "multi_channels_select",
	}
	actionsElements        = set(append([]string{"button", "checkboxes", "datepicker", "datetimepicker", "overflow", "radio_buttons", "timepicker", "workflow_button", "rich_text_input"}, selectElements...)...)
	accessoryElements      = set(append([]string{"button", "checkboxes", "datepicker", "image", "overflow", "radio_buttons", "timepicker", "workflow_button"}, selectElements...)...)
	inputElements          = set(append([]string{"checkboxes", "datepicker", "datetimepicker", "email_text_input", "file_input", "number_input", "plain_text_input", "radio_buttons", "rich_text_input", "timepicker", "url_text_input"}, selectElements...)...)
	contextActionsElements = set("feedback_buttons", "icon_button")
)

func set(names ...string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return m
}

// element checks a block element against the types its container allows.
func (c *checker) element(v any, ptr string, allowed map[string]bool) {
	o, ok := c.object(v, ptr, "element")
	if !ok {
		return
	}
	typ, ok := c.str(o, "type", ptr, true, 0)
	if !ok {
		return
	}
	if !allowed[typ] {
		c.fail(ptr+"/type", RuleUnknownType, "element type %q is not allowed here", typ)
		return
	}
	if typ == "image" {
		c.imageElement(o, ptr)
		return
	}
	c.id(o, "action_id", ptr, c.actionIDs)
	c.confirm(o, ptr)
	c.textField(o, "placeholder", ptr, false, true, MaxPlaceholderText)
	switch typ {
	case "button":
		c.button(o, ptr)
	case "overflow":
		c.options(o, ptr, true, MaxOverflowOptions)
	case "static_select", "multi_static_select":
		_, groups := o["option_groups"]
		c.options(o, ptr, !groups, MaxSelectOptions)
	case "checkboxes", "radio_buttons":
		c.options(o, ptr, true, 10)
	}
}

func (c *checker) button(o map[string]any, ptr string) {
	c.textField(o, "text", ptr, true, true, MaxButtonText)
	c.str(o, "url", ptr, false, MaxURL)
	c.str(o, "value", ptr, false, MaxButtonValue)
	c.str(o, "accessibility_label", ptr, false, MaxButtonA11yLabel)
	c.enum(o, "style", ptr, "primary", "danger")
}

func (c *checker) options(o map[string]any, ptr string, required bool, max int) {
	for i, op := range c.array(o, "options", ptr, required, max) {
		p := fmt.Sprintf("%s/options/%d", ptr, i)
		if oo, ok := c.object(op, p, "option"); ok {
			c.textField(oo, "text", p, true, false, MaxOptionText)
			c.str(oo, "value", p, true, MaxOptionValue)
			c.str(oo, "url", p, false, MaxURL)
		}
	}
}

func (c *checker) confirm(o map[string]any, ptr string) {
	v, ok := o["confirm"]
	if !ok || v == nil {
		return
	}
	p := ptr + "/confirm"
	co, ok := c.object(v, p, "confirm")
	if !ok {
		return
	}
	c.textField(co, "title", p, true, true, MaxConfirmTitle)
	c.textField(co, "text", p, true, false, MaxConfirmText)
	c.textField(co, "confirm", p, true, true, MaxConfirmButton)
	c.textField(co, "deny", p, true, true, MaxConfirmButton)
	c.enum(co, "style", p, "primary", "danger")
}

// imageElement checks an image element (context or accessory).
func (c *checker) imageElement(o map[string]any, ptr string) {
	c.imageSource(o, ptr)
}

// imageSource demands image_url or slack_file, and alt_text.
func (c *checker) imageSource(o map[string]any, ptr string) {
	if sf, ok := o["slack_file"]; ok && sf != nil {
		c.object(sf, ptr+"/slack_file", "slack_file")
	} else {
		c.str(o, "image_url", ptr, true, MaxURL)
	}
	c.str(o, "alt_text", ptr, true, MaxAltText)
}
