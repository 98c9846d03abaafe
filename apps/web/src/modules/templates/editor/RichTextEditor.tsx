import { ActionIcon, ColorPicker, Group, NativeSelect, Popover, Stack, TextInput, Button } from '@mantine/core';
import { FONT_SIZES, isSafeHref, type TRichText } from '@yado/contracts/templates';
import {
  IconAlignCenter,
  IconAlignJustified,
  IconAlignLeft,
  IconAlignRight,
  IconBold,
  IconItalic,
  IconLink,
  IconList,
  IconListNumbers,
  IconPalette,
  IconUnderline,
} from '@tabler/icons-react';
import { EditorContent, useEditor, useEditorState, type Editor } from '@tiptap/react';
import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { cleanRichText, richTextExtensions } from './richText';
import { TagMenu } from './TagMenu';

const SWATCHES = [
  '#222222',
  '#555555',
  '#999999',
  '#ffffff',
  '#c92a2a',
  '#e8590c',
  '#f08c00',
  '#2f9e44',
  '#1c7ed6',
  '#6741d9',
  '#a61e4d',
  '#8b5a2b',
];

export interface TRichTextEditorProps {
  content: TRichText;
  onChange: (content: TRichText) => void;
  editable: boolean;
  /** The toolbar shows while the block is selected. */
  toolbar: boolean;
  label: string;
}

function ToolButton({
  label,
  active,
  onClick,
  children,
}: {
  label: string;
  active?: boolean;
  onClick: () => void;
  children: ReactNode;
}) {
  return (
    <ActionIcon
      title={label}
      variant={active ? 'filled' : 'subtle'}
      color={active ? 'blue' : 'gray'}
      aria-label={label}
      aria-pressed={active}
      onMouseDown={(event) => event.preventDefault()}
      onClick={onClick}
    >
      {children}
    </ActionIcon>
  );
}

function LinkButton({ editor }: { editor: Editor }) {
  const { t } = useTranslation();
  const [opened, setOpened] = useState(false);
  const [href, setHref] = useState('');
  const valid = href.trim() === '' || isSafeHref(href.trim());
  const apply = () => {
    if (!valid) return;
    const chain = editor.chain().focus().extendMarkRange('link');
    if (href.trim() === '') chain.unsetMark('link').run();
    else chain.setMark('link', { href: href.trim() }).run();
    setOpened(false);
  };
  return (
    <Popover opened={opened} onChange={setOpened} withinPortal trapFocus position="bottom">
      <Popover.Target>
        <ActionIcon
          title={t('templates.text.link')}
          variant={editor.isActive('link') ? 'filled' : 'subtle'}
          color={editor.isActive('link') ? 'blue' : 'gray'}
          aria-label={t('templates.text.link')}
          onMouseDown={(event) => event.preventDefault()}
          onClick={() => {
            setHref(String(editor.getAttributes('link').href ?? ''));
            setOpened((o) => !o);
          }}
        >
          <IconLink size={16} />
        </ActionIcon>
      </Popover.Target>
      <Popover.Dropdown>
        <Stack gap="xs" w={280}>
          <TextInput
            size="xs"
            label={t('templates.fields.link')}
            placeholder={t('templates.fields.link_placeholder')}
            value={href}
            error={valid ? null : t('templates.errors.invalid_link')}
            onChange={(event) => setHref(event.currentTarget.value)}
            onKeyDown={(event) => {
              if (event.key === 'Enter') {
                event.preventDefault();
                apply();
              }
            }}
          />
          <Group justify="flex-end" gap="xs">
            <Button size="xs" variant="default" onClick={() => setOpened(false)}>
              {t('common.cancel')}
            </Button>
            <Button size="xs" onClick={apply} disabled={!valid}>
              {t('templates.text.apply_link')}
            </Button>
          </Group>
        </Stack>
      </Popover.Dropdown>
    </Popover>
  );
}

function Toolbar({ editor }: { editor: Editor }) {
  const { t } = useTranslation();
  const state = useEditorState({
    editor,
    selector: ({ editor: e }) => ({
      bold: e.isActive('bold'),
      italic: e.isActive('italic'),
      underline: e.isActive('underline'),
      bullet: e.isActive('bulletList'),
      ordered: e.isActive('orderedList'),
      align: (['left', 'center', 'right', 'justify'] as const).find((a) => e.isActive({ textAlign: a })) ?? 'left',
      size: String(e.getAttributes('textStyle').fontSize ?? ''),
      color: String(e.getAttributes('textStyle').color ?? ''),
    }),
  });
  const run = (command: (chain: ReturnType<Editor['chain']>) => ReturnType<Editor['chain']>) =>
    command(editor.chain().focus()).run();
  const aligns = [
    { value: 'left', icon: IconAlignLeft },
    { value: 'center', icon: IconAlignCenter },
    { value: 'right', icon: IconAlignRight },
    { value: 'justify', icon: IconAlignJustified },
  ] as const;
  return (
    <Group
      gap={2}
      wrap="wrap"
      p={4}
      bg="gray.0"
      style={{ borderBottom: '1px solid var(--mantine-color-gray-3)' }}
      data-testid="text-toolbar"
    >
      <ToolButton label={t('templates.text.bold')} active={state.bold} onClick={() => run((c) => c.toggleMark('bold'))}>
        <IconBold size={16} />
      </ToolButton>
      <ToolButton
        label={t('templates.text.italic')}
        active={state.italic}
        onClick={() => run((c) => c.toggleMark('italic'))}
      >
        <IconItalic size={16} />
      </ToolButton>
      <ToolButton
        label={t('templates.text.underline')}
        active={state.underline}
        onClick={() => run((c) => c.toggleMark('underline'))}
      >
        <IconUnderline size={16} />
      </ToolButton>
      <LinkButton editor={editor} />
      <ToolButton
        label={t('templates.text.bullet_list')}
        active={state.bullet}
        onClick={() => run((c) => c.toggleList('bulletList', 'listItem'))}
      >
        <IconList size={16} />
      </ToolButton>
      <ToolButton
        label={t('templates.text.ordered_list')}
        active={state.ordered}
        onClick={() => run((c) => c.toggleList('orderedList', 'listItem'))}
      >
        <IconListNumbers size={16} />
      </ToolButton>
      {aligns.map(({ value, icon: Icon }) => (
        <ToolButton
          key={value}
          label={t(`templates.align.${value}`)}
          active={state.align === value}
          onClick={() => run((c) => c.setTextAlign(value))}
        >
          <Icon size={16} />
        </ToolButton>
      ))}
      <Popover withinPortal position="bottom">
        <Popover.Target>
          <ActionIcon
            title={t('templates.text.color')}
            variant="subtle"
            color="gray"
            aria-label={t('templates.text.color')}
            onMouseDown={(event) => event.preventDefault()}
          >
            <IconPalette size={16} color={state.color || undefined} />
          </ActionIcon>
        </Popover.Target>
        <Popover.Dropdown>
          <ColorPicker
            format="hex"
            swatches={SWATCHES}
            swatchesPerRow={6}
            value={state.color || '#222222'}
            onChangeEnd={(color) => run((c) => c.setColor(color))}
            onColorSwatchClick={(color) => run((c) => c.setColor(color))}
          />
        </Popover.Dropdown>
      </Popover>
      <NativeSelect
        size="xs"
        aria-label={t('templates.text.size')}
        value={state.size}
        onChange={(event) => {
          const size = event.currentTarget.value;
          run((c) => (size ? c.setFontSize(size) : c.unsetFontSize()));
        }}
        data={[
          { value: '', label: t('templates.text.size_default') },
          ...FONT_SIZES.map((size) => ({ value: `${size}px`, label: `${size}px` })),
        ]}
      />
      <TagMenu compact onInsert={(key, fallback) => run((c) => c.insertPersonalTag(key, fallback || null))} />
    </Group>
  );
}

/** A text block's rich text, edited in place with tiptap; what it emits is the contract's subset. */
export function RichTextEditor({ content, onChange, editable, toolbar, label }: TRichTextEditorProps) {
  const { t } = useTranslation();
  const emitted = useRef<TRichText>(content);
  const onChangeRef = useRef(onChange);
  onChangeRef.current = onChange;
  const extensions = useMemo(() => richTextExtensions((key) => t(`templates.tags.names.${key}`)), [t]);
  const editor = useEditor({
    extensions,
    content,
    editable,
    editorProps: { attributes: { 'aria-label': label, class: 'yado-rich-text' } },
    onUpdate: ({ editor: e }) => {
      const next = cleanRichText(e.getJSON());
      // A transaction that changes nothing the document holds (a selection, a stored text that
      // only gains its default attributes) is no edit, and no undo step.
      if (JSON.stringify(next) === JSON.stringify(cleanRichText(emitted.current))) return;
      emitted.current = next;
      onChangeRef.current(next);
    },
  });

  // Undo, redo and a reload change the content from outside: show it without emitting it back.
  useEffect(() => {
    if (!editor || content === emitted.current) return;
    emitted.current = content;
    editor.commands.setContent(content, { emitUpdate: false });
  }, [content, editor]);

  useEffect(() => {
    editor?.setEditable(editable);
  }, [editor, editable]);

  return (
    <div>
      {toolbar && editable && editor && <Toolbar editor={editor} />}
      <EditorContent editor={editor} />
    </div>
  );
}
