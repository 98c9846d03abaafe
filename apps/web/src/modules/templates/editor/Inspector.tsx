import { Button, Group, Input, Paper, Slider, Stack, Switch, Text, Textarea, TextInput } from '@mantine/core';
import { DIVIDER_THICKNESSES, type TBlock, type TBlockDocument, type TSection } from '@yado/contracts/templates';
import { IconUpload } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useImageUpload } from '../../ui/hooks/useImageUpload';
import { imageErrorKey, imageFileProblem, imageFromUrl, uploadImage } from '../api/templatesCalls';
import { useBuilder } from './builderContext';
import { findBlock, findSection, type TBlockPatch, type TSectionPatch } from './documentEditing';
import { AlignField, ChoiceField, ColorField, HrefField, NumberField } from './fields';
import { TaggedTextInput } from './TaggedTextInput';

function ImageSource({ update }: { update: (patch: TBlockPatch) => void }) {
  const { t } = useTranslation();
  const { readOnly } = useBuilder();
  const [url, setUrl] = useState('');
  const [fetching, setFetching] = useState(false);
  const file = useImageUpload({
    problemOf: imageFileProblem,
    upload: uploadImage,
    refusalOf: (error) => imageErrorKey(error, 'upload_failed'),
    onUploaded: (src) => update({ src }),
  });
  const { problem, setProblem } = file;

  const fetchUrl = async () => {
    const address = url.trim();
    if (!/^https?:\/\/\S+$/i.test(address)) {
      setProblem('errors.image_fetch_failed');
      return;
    }
    setFetching(true);
    setProblem(null);
    try {
      update({ src: await imageFromUrl(address) });
      setUrl('');
    } catch (error) {
      setProblem(imageErrorKey(error, 'image_fetch_failed'));
    } finally {
      setFetching(false);
    }
  };

  return (
    <Input.Wrapper label={t('templates.image.source')} error={problem ? t(problem) : null} data-testid="image-source">
      <Stack gap="xs" mt={4}>
        <Button
          variant="light"
          size="xs"
          leftSection={<IconUpload size={14} />}
          loading={file.uploading}
          disabled={readOnly}
          onClick={file.pick}
        >
          {t('templates.image.upload')}
        </Button>
        <Text size="xs" c="dimmed">
          {t('templates.image.upload_hint')}
        </Text>
        <input {...file.inputProps} data-testid="image-file" />
        <Group gap="xs" wrap="nowrap" align="flex-end">
          <TextInput
            style={{ flex: 1 }}
            size="xs"
            label={t('templates.image.url')}
            placeholder={t('templates.fields.link_placeholder')}
            value={url}
            disabled={readOnly}
            onChange={(event) => setUrl(event.currentTarget.value)}
            onKeyDown={(event) => {
              if (event.key === 'Enter') {
                event.preventDefault();
                void fetchUrl();
              }
            }}
          />
          <Button
            size="xs"
            variant="default"
            loading={fetching}
            disabled={readOnly || url.trim() === ''}
            onClick={() => void fetchUrl()}
          >
            {t('templates.image.use_url')}
          </Button>
        </Group>
      </Stack>
    </Input.Wrapper>
  );
}

/** A button's or a link's text (tags allowed) and where it leads. */
function LabelAndLink({
  block,
  name,
  maxLength,
  update,
}: {
  block: Extract<TBlock, { type: 'button' | 'link' }>;
  name: string;
  maxLength?: number;
  update: (patch: TBlockPatch) => void;
}) {
  const { t } = useTranslation();
  const { readOnly } = useBuilder();
  return (
    <>
      <TaggedTextInput
        label={t('templates.fields.label')}
        name={name}
        value={block.label}
        maxLength={maxLength}
        disabled={readOnly}
        onChange={(label) => update({ label })}
      />
      <HrefField
        label={t('templates.fields.link')}
        value={block.href}
        disabled={readOnly}
        onChange={(href) => update({ href })}
      />
    </>
  );
}

function BlockSettings({ block }: { block: TBlock }) {
  const { t } = useTranslation();
  const { dispatch, language, readOnly } = useBuilder();
  const update = (patch: TBlockPatch) => dispatch({ type: 'update_block', language, id: block.id, patch });
  const padding = (
    <NumberField
      label={t('templates.fields.padding')}
      value={block.padding}
      min={0}
      max={80}
      suffix=" px"
      disabled={readOnly}
      onChange={(value) => update({ padding: value })}
    />
  );
  switch (block.type) {
    case 'text':
      return (
        <>
          <Text size="sm" c="dimmed">
            {t('templates.inspector.text_hint')}
          </Text>
          {padding}
        </>
      );
    case 'divider':
      return (
        <>
          <ChoiceField
            label={t('templates.fields.thickness')}
            value={block.thickness}
            options={DIVIDER_THICKNESSES.map((value) => ({ value, label: t(`templates.divider.${value}`) }))}
            disabled={readOnly}
            onChange={(thickness) => update({ thickness })}
            testId="divider-thickness"
          />
          <ColorField
            label={t('templates.fields.color')}
            value={block.color}
            disabled={readOnly}
            onChange={(color) => color && update({ color })}
          />
          {padding}
        </>
      );
    case 'image':
      return (
        <>
          <ImageSource update={update} />
          <TextInput
            label={t('templates.fields.alt')}
            description={t('templates.image.alt_hint')}
            value={block.alt}
            disabled={readOnly}
            maxLength={300}
            onChange={(event) => update({ alt: event.currentTarget.value })}
          />
          <HrefField
            label={t('templates.fields.image_link')}
            value={block.href}
            disabled={readOnly}
            onChange={(href) => update({ href })}
          />
          <Input.Wrapper label={t('templates.fields.width', { width: block.width })}>
            <Slider
              mt={6}
              min={10}
              max={100}
              step={5}
              value={block.width}
              disabled={readOnly}
              onChange={(width) => update({ width })}
              label={(value) => `${value}%`}
            />
          </Input.Wrapper>
          <AlignField value={block.align} disabled={readOnly} onChange={(align) => update({ align })} />
          {padding}
        </>
      );
    case 'button':
      return (
        <>
          <LabelAndLink block={block} name="buttonLabel" maxLength={200} update={update} />
          <ColorField
            label={t('templates.fields.background_color')}
            value={block.backgroundColor}
            disabled={readOnly}
            onChange={(c) => c && update({ backgroundColor: c })}
          />
          <ColorField
            label={t('templates.fields.text_color')}
            value={block.textColor}
            disabled={readOnly}
            onChange={(c) => c && update({ textColor: c })}
          />
          <AlignField value={block.align} disabled={readOnly} onChange={(align) => update({ align })} />
          <Switch
            label={t('templates.fields.full_width')}
            checked={block.fullWidth}
            disabled={readOnly}
            onChange={(event) => update({ fullWidth: event.currentTarget.checked })}
          />
          {padding}
        </>
      );
    case 'code':
      return (
        <>
          <Textarea
            label={t('templates.fields.html')}
            description={t('templates.inspector.code_hint')}
            value={block.html}
            disabled={readOnly}
            autosize
            minRows={6}
            maxRows={18}
            maxLength={50_000}
            styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)', fontSize: 12 } }}
            onChange={(event) => update({ html: event.currentTarget.value })}
          />
          {padding}
        </>
      );
    case 'link':
      return (
        <>
          <LabelAndLink block={block} name="linkLabel" update={update} />
          <ColorField
            label={t('templates.fields.color')}
            value={block.color}
            disabled={readOnly}
            onChange={(c) => c && update({ color: c })}
          />
          <NumberField
            label={t('templates.fields.font_size')}
            value={block.fontSize}
            min={10}
            max={48}
            suffix=" px"
            disabled={readOnly}
            onChange={(fontSize) => update({ fontSize })}
          />
          <AlignField value={block.align} disabled={readOnly} onChange={(align) => update({ align })} />
          {padding}
        </>
      );
  }
}

function SectionSettings({ section }: { section: TSection }) {
  const { t } = useTranslation();
  const { dispatch, language, readOnly } = useBuilder();
  const update = (patch: TSectionPatch) => dispatch({ type: 'update_section', language, id: section.id, patch });
  return (
    <>
      <ChoiceField
        label={t('templates.fields.columns')}
        value={String(section.columns.length) as '1' | '2' | '3'}
        options={(['1', '2', '3'] as const).map((value) => ({ value, label: value }))}
        disabled={readOnly}
        onChange={(value) => update({ columnCount: Number(value) as 1 | 2 | 3 })}
        testId="section-columns"
      />
      <Text size="xs" c="dimmed">
        {t('templates.inspector.columns_hint')}
      </Text>
      <ColorField
        label={t('templates.fields.background_color')}
        value={section.backgroundColor}
        clearable
        disabled={readOnly}
        onChange={(backgroundColor) => update({ backgroundColor })}
      />
      <NumberField
        label={t('templates.fields.padding_top')}
        value={section.paddingTop}
        min={0}
        max={120}
        suffix=" px"
        disabled={readOnly}
        onChange={(paddingTop) => update({ paddingTop })}
      />
      <NumberField
        label={t('templates.fields.padding_bottom')}
        value={section.paddingBottom}
        min={0}
        max={120}
        suffix=" px"
        disabled={readOnly}
        onChange={(paddingBottom) => update({ paddingBottom })}
      />
    </>
  );
}

function DocumentSettings({ document }: { document: TBlockDocument }) {
  const { t } = useTranslation();
  const { dispatch, language, readOnly } = useBuilder();
  return (
    <>
      <Text size="sm" c="dimmed">
        {t('templates.inspector.nothing_selected')}
      </Text>
      <ColorField
        label={t('templates.fields.page_background')}
        value={document.backgroundColor}
        disabled={readOnly}
        onChange={(c) => c && dispatch({ type: 'update_document', language, patch: { backgroundColor: c } })}
      />
      <ColorField
        label={t('templates.fields.content_background')}
        value={document.contentBackgroundColor}
        disabled={readOnly}
        onChange={(c) => c && dispatch({ type: 'update_document', language, patch: { contentBackgroundColor: c } })}
      />
      <ColorField
        label={t('templates.fields.text_color')}
        value={document.textColor}
        disabled={readOnly}
        onChange={(c) => c && dispatch({ type: 'update_document', language, patch: { textColor: c } })}
      />
      <NumberField
        label={t('templates.fields.font_size')}
        value={document.fontSize}
        min={10}
        max={32}
        suffix=" px"
        disabled={readOnly}
        onChange={(fontSize) => dispatch({ type: 'update_document', language, patch: { fontSize } })}
      />
    </>
  );
}

/** The settings of what is selected: a block, a section, or the whole mail. */
export function Inspector({ document }: { document: TBlockDocument }) {
  const { t } = useTranslation();
  const { selectedId } = useBuilder();
  const block = selectedId ? findBlock(document, selectedId)?.block : undefined;
  const sectionIndex = selectedId ? findSection(document, selectedId) : -1;
  const section = document.sections[sectionIndex];
  const title = block
    ? t(`templates.blocks.${block.type}`)
    : section
      ? t('templates.canvas.section', { count: section.columns.length })
      : t('templates.inspector.mail');
  return (
    <Paper withBorder radius="md" p="sm" data-testid="inspector">
      <Stack gap="sm">
        <Text fw={700} size="sm">
          {title}
        </Text>
        {block ? (
          <BlockSettings key={block.id} block={block} />
        ) : section ? (
          <SectionSettings key={section.id} section={section} />
        ) : (
          <DocumentSettings document={document} />
        )}
      </Stack>
    </Paper>
  );
}
