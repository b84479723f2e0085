package blockkit

import "fmt"

// blockCheckers holds the block types Slack accepts in messages and views,
// each with the checks for its own fields.
var blockCheckers = map[string]func(c *checker, o map[string]any, ptr string){
	"section":         (*checker).section,
	"header":          (*checker).header,
	"context":         (*checker).context,
	"actions":         (*checker).actions,
	"divider":         func(*checker, map[string]any, string) {},
	"image":           (*checker).imageBlock,
	"rich_text":       (*checker).richText,
	"markdown":        (*checker).markdown,
	"input":           (*checker).input,
	"file":            (*checker).file,
	"video":           (*checker).video,
	"table":           (*checker).table,
	"context_actions": (*checker).contextActions,
}

func (c *checker) checkBlock(v any, ptr string) {
	o, ok := c.object(v, ptr, "block")
	if !ok {
		return
	}
	typ, ok := c.str(o, "type", ptr, true, 0)
	if !ok {
		return
	}
	c.blockType = typ
	check, known := blockCheckers[typ]
	if !known {
		c.fail(ptr+"/type", RuleUnknownType, "unknown block type %q", typ)
		return
	}
	c.id(o, "block_id", ptr, c.blockIDs)
	check(c, o, ptr)
}

func (c *checker) section(o map[string]any, ptr string) {
	_, hasText := o["text"]
	fields := c.array(o, "fields", ptr, false, MaxSectionFields)
	if !hasText && len(fields) == 0 {
		c.fail(ptr+"/text", RuleRequired, "section needs text or fields")
	}
	c.textField(o, "text", ptr, false, false, MaxSectionText)
	for i, f := range fields {
		c.text(f, fmt.Sprintf("%s/fields/%d", ptr, i), false, MaxFieldText)
	}
	if acc, ok := o["accessory"]; ok && acc != nil {
		c.element(acc, ptr+"/accessory", accessoryElements)
	}
}

func (c *checker) header(o map[string]any, ptr string) {
	c.textField(o, "text", ptr, true, true, MaxHeaderText)
}

func (c *checker) context(o map[string]any, ptr string) {
	for i, e := range c.array(o, "elements", ptr, true, MaxContextElements) {
		p := fmt.Sprintf("%s/elements/%d", ptr, i)
		if eo, ok := e.(map[string]any); ok && eo["type"] == "image" {
			c.imageElement(eo, p)
			continue
		}
		c.text(e, p, false, MaxTextObject)
	}
}

func (c *checker) actions(o map[string]any, ptr string) {
	for i, e := range c.array(o, "elements", ptr, true, MaxActionsElements) {
		c.element(e, fmt.Sprintf("%s/elements/%d", ptr, i), actionsElements)
	}
}

func (c *checker) contextActions(o map[string]any, ptr string) {
	for i, e := range c.array(o, "elements", ptr, true, 5) {
		c.element(e, fmt.Sprintf("%s/elements/%d", ptr, i), contextActionsElements)
	}
}

func (c *checker) imageBlock(o map[string]any, ptr string) {
	c.imageSource(o, ptr)
	c.textField(o, "title", ptr, false, true, MaxImageTitle)
}

func (c *checker) richText(o map[string]any, ptr string) {
	for i, e := range c.array(o, "elements", ptr, true, 0) {
		p := fmt.Sprintf("%s/elements/%d", ptr, i)
		if eo, ok := c.object(e, p, "rich text element"); ok {
			c.enum(eo, "type", p, "rich_text_section", "rich_text_list", "rich_text_preformatted", "rich_text_quote")
			c.array(eo, "elements", p, false, 0)
		}
	}
}

func (c *checker) markdown(o map[string]any, ptr string) {
	c.str(o, "text", ptr, true, MaxMarkdownText)
}

func (c *checker) input(o map[string]any, ptr string) {
	c.textField(o, "label", ptr, true, true, MaxInputLabel)
	c.textField(o, "hint", ptr, false, true, MaxInputHint)
	if e, ok := o["element"]; ok && e != nil {
		c.element(e, ptr+"/element", inputElements)
	} else {
		c.fail(ptr+"/element", RuleRequired, "element is required")
	}
}

func (c *checker) file(o map[string]any, ptr string) {
	c.str(o, "external_id", ptr, true, 0)
	c.enum(o, "source", ptr, "remote")
}

func (c *checker) video(o map[string]any, ptr string) {
	c.textField(o, "title", ptr, true, true, 200)
	c.str(o, "video_url", ptr, true, MaxURL)
	c.str(o, "thumbnail_url", ptr, true, MaxURL)
	c.str(o, "alt_text", ptr, true, MaxAltText)
}

func (c *checker) table(o map[string]any, ptr string) {
	c.array(o, "rows", ptr, true, 100)
}
