import { Router } from 'express';
import { z } from 'zod';
import { idFromText } from '../../shared/schemas/zod.js';
import { AppError, notFound } from '../http/errors.js';
import { CATEGORIES } from '../../shared/catalog/categories.js';
import { CATEGORY_IMAGE_CODES, categoryImageCode } from '../../shared/catalog/category-images.js';
import { artworkLabel } from '../entities/entity-service.js';
import type { SearchService } from '../search/search-service.js';
import { artworkSvg } from './artwork.js';

const IMAGE_CODE = /^\d{2}-\d{3}-\d{3}$/;
const IdParam = z.object({ id: idFromText('id') });
// Artwork depends only on the key, so browsers and the edge may keep it for a year.
const IMMUTABLE = 'public, max-age=31536000, immutable';

export function mediaRoutes(search: SearchService): Router {
  const router = Router();
  const codeLabels = new Map<string, string>();
  for (const [path, code] of CATEGORY_IMAGE_CODES) codeLabels.set(code, path.split('/').at(-1)!);
  for (const c of CATEGORIES) codeLabels.set(categoryImageCode(c), c.name);

  const send = (res: import('express').Response, key: string, label: string) =>
    res.type('image/svg+xml').set('Cache-Control', IMMUTABLE).send(artworkSvg(key, label));

  router.get('/media/categories/:file', (req, res) => {
    const code = req.params.file.replace(/\.svg$/, '');
    if (!IMAGE_CODE.test(code))
      throw new AppError(400, 'invalid_image_code', 'Image code must look like NN-NNN-NNN.svg');
    const label = codeLabels.get(code);
    if (!label) throw notFound(`Category image ${code}`);
    send(res, `category:${code}`, label);
  });

  router.get('/media/:kind/:file', async (req, res) => {
    const { kind } = req.params;
    if (kind !== 'performers' && kind !== 'venues') throw notFound('Image');
    const { id } = IdParam.parse({ id: req.params.file.replace(/\.svg$/, '') });
    const label = await artworkLabel(search.engine, kind, id);
    if (!label) throw notFound(`${kind === 'performers' ? 'Performer' : 'Venue'} image ${id}`);
    send(res, `${kind}:${id}`, label);
  });
  return router;
}
