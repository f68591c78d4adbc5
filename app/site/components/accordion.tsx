import { useId, useState, type ReactNode } from "react";
import { useWithoutScripts } from "~/ui/light";

interface AccordionItem<K extends string> {
  key: K;
  title: string;
  summary: string;
  content: ReactNode;
}

/**
 * Clickable cards that open one panel at a time (§2 Home: Community and Articles). Each card is a
 * real button with aria-expanded; clicking the open card closes its panel.
 */
export function Accordion<K extends string>({
  items,
  defaultOpen,
  label,
}: {
  items: AccordionItem<K>[];
  defaultOpen: K | "";
  label: string;
}) {
  const [open, setOpen] = useState<K | "">(defaultOpen);
  const id = useId();
  // Without scripts (light mode, decision 049): each card is a disclosure the browser opens.
  if (useWithoutScripts()) {
    return (
      <ul className="accordion-cards accordion-disclosures" aria-label={label}>
        {items.map((item) => (
          <li key={item.key}>
            <details open={item.key === defaultOpen}>
              <summary className="accordion-card">
                {/* A heading, as the cards' buttons have one: the panel's own headings follow it. */}
                <h3 className="accordion-card-title">{item.title}</h3>
                <span className="accordion-card-summary">{item.summary}</span>
                <span className="accordion-card-icon" aria-hidden="true" />
              </summary>
              <div className="accordion-panel">{item.content}</div>
            </details>
          </li>
        ))}
      </ul>
    );
  }
  return (
    <div className="accordion">
      <ul className="accordion-cards" aria-label={label}>
        {items.map((item) => {
          const expanded = open === item.key;
          return (
            <li key={item.key}>
              <h3 className="accordion-heading">
                <button
                  type="button"
                  id={`${id}-${item.key}-button`}
                  className="accordion-card"
                  aria-expanded={expanded}
                  aria-controls={`${id}-${item.key}-panel`}
                  onClick={() => setOpen(expanded ? "" : item.key)}
                >
                  <span className="accordion-card-title">{item.title}</span>
                  <span className="accordion-card-summary">{item.summary}</span>
                  <span className="accordion-card-icon" aria-hidden="true" />
                </button>
              </h3>
            </li>
          );
        })}
      </ul>
      {items.map((item) => (
        <div
          key={item.key}
          id={`${id}-${item.key}-panel`}
          role="region"
          aria-labelledby={`${id}-${item.key}-button`}
          className="accordion-panel"
          hidden={open !== item.key}
        >
          {item.content}
        </div>
      ))}
    </div>
  );
}
