import { templatesApi, type TEntitlement } from '@yado/contracts';
import type { FastifyInstance } from 'fastify';
import { uuid } from '../../http/params.ts';
import { route } from '../../http/route.ts';
import { fileRoutes } from '../../http/file-routes.ts';
import type { TRuntime } from '../../runtime.ts';
import { createLogoStore } from '../uploads/logo-store.ts';
import { imageFromUrl, uploadTemplateImage } from './image-operations.ts';
import { imageUrlResolver } from './render-template.ts';
import {
  createTemplate,
  duplicateTemplate,
  getTemplate,
  listTemplatesFor,
  previewTemplate,
  removeTemplate,
  saveTemplate,
  templateReport,
  testSendTemplate,
} from './template-operations.ts';

/** Anyone with a templates key may see and preview the templates (a viewer holds only the report's). */
const READ: TEntitlement[] = [
  'templates.view_templates_report',
  'templates.create',
  'templates.update',
  'templates.delete',
];
/** Images go into templates and, through the same builder, campaigns. */
const IMAGES: TEntitlement[] = ['templates.create', 'templates.update', 'campaign.create', 'campaign.update'];

export function templateRoutes(app: FastifyInstance, rt: TRuntime): void {
  const store = createLogoStore(rt.config);
  const imageUrl = imageUrlResolver(rt.config, store);

  route(app, templatesApi.list, { anyOf: READ }, async ({ query, ctx }) => listTemplatesFor(rt, ctx, query));
  route(app, templatesApi.create, { entitlement: 'templates.create' }, async ({ body, ctx }) =>
    createTemplate(rt, ctx, body),
  );
  route(app, templatesApi.get, { anyOf: READ }, async ({ params, ctx }) => getTemplate(rt, ctx, uuid(params.id)));
  route(app, templatesApi.update, { entitlement: 'templates.update' }, async ({ params, body, ctx }) =>
    saveTemplate(rt, ctx, uuid(params.id), body),
  );
  route(app, templatesApi.duplicate, { entitlement: 'templates.create' }, async ({ params, body, ctx }) =>
    duplicateTemplate(rt, ctx, uuid(params.id), body),
  );
  route(app, templatesApi.remove, { entitlement: 'templates.delete' }, async ({ params, ctx }) =>
    removeTemplate(rt, ctx, uuid(params.id)),
  );
  fileRoutes(app, (files) =>
    route(files, templatesApi.uploadImage, { anyOf: IMAGES }, async ({ request }) =>
      uploadTemplateImage(rt, store, request),
    ),
  );
  route(app, templatesApi.imageFromUrl, { anyOf: IMAGES }, async ({ body }) => imageFromUrl(rt, store, body.url));
  route(app, templatesApi.preview, { anyOf: READ }, async ({ params, body, ctx }) =>
    previewTemplate(rt, ctx, imageUrl, uuid(params.id), body),
  );
  route(
    app,
    templatesApi.testSend,
    { anyOf: ['templates.create', 'templates.update'] },
    async ({ params, body, ctx }) => testSendTemplate(rt, ctx, imageUrl, uuid(params.id), body),
  );
  route(app, templatesApi.report, { entitlement: 'templates.view_templates_report' }, async ({ params, ctx }) =>
    templateReport(rt, ctx, uuid(params.id)),
  );
}
